package mcp

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"

	"airlock/backend/redact"
)

// What a server offers besides tools: prompts (the person's "/" commands)
// and resources (things to attach). Airlock reads them when the person asks
// (the composer's menus), never on its own; a server announcing that a list
// changed makes OnChange run, and the UI reads the list again.

// Caps on what one server's lists may cost: more is left out and said.
const (
	MaxListedPrompts   = 200
	MaxListedResources = 500
	MaxListedTemplates = 100
	// MaxCompletions is the most values one completion offers (the spec's
	// own limit).
	MaxCompletions = 100
	// MaxOfferBytes caps what a prompt or a resource brings into a message
	// (text and files together; below the SDK's 16 MB message limit, which
	// is said too); attachments' own caps apply after.
	MaxOfferBytes = 8 << 20
)

// Prompt is a prompt a server offers.
type Prompt struct {
	Server      string           `json:"server"`
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments"`
}

// PromptArgument is an argument a prompt takes.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// Resource is a resource a server offers.
type Resource struct {
	Server      string `json:"server"`
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIME        string `json:"mime,omitempty"`
	Size        int64  `json:"size,omitempty"`
}

// ResourceTemplate is a family of resources: fill its Variables to get a
// URI (RFC 6570).
type ResourceTemplate struct {
	Server      string   `json:"server"`
	URITemplate string   `json:"uriTemplate"`
	Name        string   `json:"name"`
	Title       string   `json:"title,omitempty"`
	Description string   `json:"description,omitempty"`
	MIME        string   `json:"mime,omitempty"`
	Variables   []string `json:"variables"`
}

// Offers is what the asked servers offer, with what could not be read.
type Offers struct {
	Prompts   []Prompt           `json:"prompts"`
	Resources []Resource         `json:"resources"`
	Templates []ResourceTemplate `json:"templates"`
	// Problems: "server: why" for a server whose list could not be read,
	// or was cut at a cap.
	Problems []string `json:"problems"`
}

// Part is what a prompt or a resource brings into a message: Text goes into
// the message, Files are attached (checked like any attached file).
type Part struct {
	Text  string `json:"text"`
	Files []File `json:"files"`
}

// File is a file a prompt or a resource brings.
type File struct {
	Name string `json:"name"`
	MIME string `json:"mime,omitempty"`
	Data []byte `json:"data"`
}

// session is the ready session of a server (an error saying why not).
func (s *server) session() (*sdk.ClientSession, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != StateReady || s.cur == nil {
		return nil, fmt.Errorf("the MCP server %q is not running (%s)", s.cfg.Name, s.reason)
	}
	a := s.cur
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.session == nil {
		return nil, fmt.Errorf("the MCP server %q is not running", s.cfg.Name)
	}
	return a.session, nil
}

func (s *server) caps(sess *sdk.ClientSession) *sdk.ServerCapabilities {
	if res := sess.InitializeResult(); res != nil && res.Capabilities != nil {
		return res.Capabilities
	}
	return &sdk.ServerCapabilities{}
}

// Offers lists the prompts, resources and templates of the named ready
// servers (nil: every ready server), each list within the list timeout;
// the servers are asked at once, so a slow one delays only by its own
// timeout. A server that offers none of a kind is skipped quietly.
func (m *Manager) Offers(ctx context.Context, servers []string, prompts, resources bool) Offers {
	var asked []*server
	for _, s := range m.list() {
		if servers == nil || contains(servers, s.cfg.Name) {
			asked = append(asked, s)
		}
	}
	per := make([]Offers, len(asked))
	var wg sync.WaitGroup
	for i, s := range asked {
		wg.Go(func() { per[i] = s.offers(ctx, prompts, resources) })
	}
	wg.Wait()
	out := Offers{Prompts: []Prompt{}, Resources: []Resource{}, Templates: []ResourceTemplate{}, Problems: []string{}}
	for _, o := range per { // in config order
		out.Prompts = append(out.Prompts, o.Prompts...)
		out.Resources = append(out.Resources, o.Resources...)
		out.Templates = append(out.Templates, o.Templates...)
		out.Problems = append(out.Problems, o.Problems...)
	}
	return out
}

// offers is what one server offers (nothing when it is not ready).
func (s *server) offers(ctx context.Context, prompts, resources bool) Offers {
	var out Offers
	sess, err := s.session()
	if err != nil {
		return out
	}
	c := s.caps(sess)
	problem := func(what string, err error) {
		out.Problems = append(out.Problems, fmt.Sprintf("%s: %s", s.cfg.Name, s.listProblem(what, err)))
	}
	if prompts && c.Prompts != nil {
		ps, err := s.prompts(ctx, sess)
		out.Prompts = ps
		if err != nil {
			problem("prompts", err)
		}
	}
	if resources && c.Resources != nil {
		rs, err := s.resources(ctx, sess)
		out.Resources = rs
		if err != nil {
			problem("resources", err)
		}
		ts, err := s.templates(ctx, sess)
		out.Templates = ts
		if err != nil {
			problem("resource templates", err)
		}
	}
	return out
}

func contains(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// errCapped is a list cut at its cap.
type errCapped struct{ n int }

func (e errCapped) Error() string {
	return fmt.Sprintf("only the first %d are listed (Airlock's cap)", e.n)
}

func (s *server) listProblem(what string, err error) string {
	var c errCapped
	switch {
	case errors.As(err, &c):
		return fmt.Sprintf("it offers more %s than Airlock lists: %s", what, err)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("listing its %s got no answer within %s", what, s.listTimeout())
	}
	return fmt.Sprintf("listing its %s failed: %s", what, scrub(err.Error(), s.secrets))
}

// each reads a paginated list within the list timeout, at most max items.
func each[T any](ctx context.Context, s *server, seq func(context.Context) iter.Seq2[T, error], max int, add func(T)) error {
	ctx, cancel := context.WithTimeout(ctx, s.listTimeout())
	defer cancel()
	n := 0
	for item, err := range seq(ctx) {
		if err != nil {
			return err
		}
		if n == max {
			return errCapped{max}
		}
		add(item)
		n++
	}
	return nil
}

func (s *server) prompts(ctx context.Context, sess *sdk.ClientSession) ([]Prompt, error) {
	var out []Prompt
	err := each(ctx, s, func(ctx context.Context) iter.Seq2[*sdk.Prompt, error] { return sess.Prompts(ctx, nil) }, MaxListedPrompts,
		func(p *sdk.Prompt) {
			if p == nil || p.Name == "" {
				return
			}
			pr := Prompt{Server: s.cfg.Name, Name: p.Name, Title: short(p.Title), Description: short(p.Description), Arguments: []PromptArgument{}}
			for _, a := range p.Arguments {
				if a != nil && a.Name != "" {
					pr.Arguments = append(pr.Arguments, PromptArgument{Name: a.Name, Title: short(a.Title), Description: short(a.Description), Required: a.Required})
				}
			}
			out = append(out, pr)
		})
	return out, err
}

func (s *server) resources(ctx context.Context, sess *sdk.ClientSession) ([]Resource, error) {
	var out []Resource
	err := each(ctx, s, func(ctx context.Context) iter.Seq2[*sdk.Resource, error] { return sess.Resources(ctx, nil) }, MaxListedResources,
		func(r *sdk.Resource) {
			if r == nil || r.URI == "" {
				return
			}
			out = append(out, Resource{Server: s.cfg.Name, URI: r.URI, Name: r.Name, Title: short(r.Title), Description: short(r.Description), MIME: r.MIMEType, Size: r.Size})
		})
	return out, err
}

func (s *server) templates(ctx context.Context, sess *sdk.ClientSession) ([]ResourceTemplate, error) {
	var out []ResourceTemplate
	err := each(ctx, s, func(ctx context.Context) iter.Seq2[*sdk.ResourceTemplate, error] {
		return sess.ResourceTemplates(ctx, nil)
	},
		MaxListedTemplates, func(r *sdk.ResourceTemplate) {
			if r == nil || r.URITemplate == "" {
				return
			}
			t, err := uritemplate.New(r.URITemplate)
			if err != nil {
				return // a template nobody can fill
			}
			out = append(out, ResourceTemplate{Server: s.cfg.Name, URITemplate: r.URITemplate, Name: r.Name, Title: short(r.Title),
				Description: short(r.Description), MIME: r.MIMEType, Variables: append([]string{}, t.Varnames()...)})
		})
	return out, err
}

// short cuts a description at MaxDescriptionBytes.
func short(s string) string {
	if len(s) > MaxDescriptionBytes {
		return cutUTF8(s, MaxDescriptionBytes) + " …"
	}
	return s
}

func (m *Manager) ready(name string) (*server, *sdk.ClientSession, error) {
	s, err := m.find(name)
	if err != nil {
		return nil, nil, err
	}
	sess, err := s.session()
	return s, sess, err
}

// GetPrompt fills a prompt with the arguments and returns what it brings:
// its messages' text (joined), images and embedded resources as files.
func (m *Manager) GetPrompt(ctx context.Context, server, name string, args map[string]string) (Part, error) {
	s, sess, err := m.ready(server)
	if err != nil {
		return Part{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.initTimeout())
	defer cancel()
	res, err := sess.GetPrompt(ctx, &sdk.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return Part{}, s.offerError(ctx, "the prompt "+name, err)
	}
	var part Part
	var texts []string
	for _, msg := range res.Messages {
		if msg == nil {
			continue
		}
		text, file, err := s.content(msg.Content, len(part.Files)+1)
		if err != nil {
			return Part{}, fmt.Errorf("the prompt %q of %q: %w", name, server, err)
		}
		if text != "" {
			texts = append(texts, text)
		}
		if file != nil {
			part.Files = append(part.Files, *file)
		}
	}
	part.Text = strings.Join(texts, "\n\n")
	return part, capPart(part, "the prompt "+name)
}

// content converts one piece of a prompt's message.
func (s *server) content(c sdk.Content, n int) (string, *File, error) {
	switch c := c.(type) {
	case *sdk.TextContent:
		return redact.Known(c.Text, s.masked...), nil, nil
	case *sdk.ImageContent:
		return "", &File{Name: fmt.Sprintf("image-%d%s", n, imageExt(c.MIMEType)), MIME: c.MIMEType, Data: c.Data}, nil
	case *sdk.EmbeddedResource:
		if c.Resource == nil {
			return "", nil, nil
		}
		f := resourceFile(c.Resource, "")
		return "", &f, nil
	case *sdk.ResourceLink:
		return fmt.Sprintf("%s (%s)", c.Name, c.URI), nil, nil
	case *sdk.AudioContent:
		return "", nil, errors.New("it contains audio, which Airlock cannot put in a message")
	case nil:
		return "", nil, nil
	}
	return "", nil, fmt.Errorf("it contains content of a kind Airlock cannot put in a message (%T)", c)
}

func imageExt(mime string) string {
	switch mime {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	}
	return ""
}

// resourceFile is a resource's contents as a file, named by name or, when
// that is empty, by the last part of its URI.
func resourceFile(r *sdk.ResourceContents, name string) File {
	if name == "" {
		name = nameOf(r.URI)
	}
	data := r.Blob
	if data == nil {
		data = []byte(r.Text)
	}
	return File{Name: name, MIME: r.MIMEType, Data: data}
}

// nameOf names a resource by its URI: the last part when it looks like a
// file name ("readme.md"), else the last two ("text-2" for
// demo://resource/dynamic/text/2), else the URI.
func nameOf(uri string) string {
	p := uri
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if i := strings.Index(p, "://"); i >= 0 {
		p = p[i+3:]
	}
	parts := strings.FieldsFunc(p, func(r rune) bool { return r == '/' })
	switch {
	case len(parts) == 0:
		return uri
	case strings.Contains(parts[len(parts)-1], ".") || len(parts) == 1:
		return parts[len(parts)-1]
	}
	return parts[len(parts)-2] + "-" + parts[len(parts)-1]
}

func capPart(p Part, what string) error {
	n := len(p.Text)
	for _, f := range p.Files {
		n += len(f.Data)
	}
	if n > MaxOfferBytes {
		return fmt.Errorf("%s brings %d MB; Airlock takes at most %d MB from one prompt or resource", what, (n+(1<<20)-1)>>20, MaxOfferBytes>>20)
	}
	return nil
}

// ReadResource reads a resource (by URI) and returns it as files, named
// name when given.
func (m *Manager) ReadResource(ctx context.Context, server, uri, name string) (Part, error) {
	s, sess, err := m.ready(server)
	if err != nil {
		return Part{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.initTimeout())
	defer cancel()
	res, err := sess.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
	if err != nil {
		return Part{}, s.offerError(ctx, "the resource "+uri, err)
	}
	var part Part
	for _, c := range res.Contents {
		if c == nil {
			continue
		}
		n := name
		if n != "" && len(res.Contents) > 1 {
			n = "" // several parts: each by its own URI
		}
		part.Files = append(part.Files, resourceFile(c, n))
	}
	if len(part.Files) == 0 {
		return Part{}, fmt.Errorf("the MCP server %q returned nothing for %s", server, uri)
	}
	return part, capPart(part, "the resource "+uri)
}

// ExpandTemplate fills a resource template's variables into a URI.
func ExpandTemplate(tmpl string, values map[string]string) (string, error) {
	t, err := uritemplate.New(tmpl)
	if err != nil {
		return "", fmt.Errorf("the resource template %q cannot be read: %w", tmpl, err)
	}
	vals := uritemplate.Values{}
	for _, v := range t.Varnames() {
		if strings.TrimSpace(values[v]) == "" {
			return "", fmt.Errorf("fill in %q first", v)
		}
		vals.Set(v, uritemplate.String(values[v]))
	}
	return t.Expand(vals)
}

// Complete asks a server for values of an argument of a prompt (kind
// "prompt", ref its name) or a resource template (kind "resource", ref the
// template), given what was typed and the other arguments. A server that
// does not complete gives none, without an error.
func (m *Manager) Complete(ctx context.Context, server, kind, ref, arg, value string, others map[string]string) ([]string, error) {
	s, sess, err := m.ready(server)
	if err != nil {
		return nil, err
	}
	if s.caps(sess).Completions == nil {
		return []string{}, nil
	}
	r := &sdk.CompleteReference{Type: "ref/prompt", Name: ref}
	if kind == "resource" {
		r = &sdk.CompleteReference{Type: "ref/resource", URI: ref}
	}
	params := &sdk.CompleteParams{Ref: r, Argument: sdk.CompleteParamsArgument{Name: arg, Value: value}}
	if len(others) > 0 {
		params.Context = &sdk.CompleteContext{Arguments: others}
	}
	ctx, cancel := context.WithTimeout(ctx, s.listTimeout())
	defer cancel()
	res, err := sess.Complete(ctx, params)
	if err != nil {
		return nil, s.offerError(ctx, "completing "+arg, err)
	}
	vals := res.Completion.Values
	if len(vals) > MaxCompletions {
		vals = vals[:MaxCompletions]
	}
	return append([]string{}, vals...), nil
}

// offerError says why a prompt, a resource or a completion failed.
func (s *server) offerError(ctx context.Context, what string, err error) error {
	if ctx.Err() == context.DeadlineExceeded {
		return fmt.Errorf("the MCP server %q did not answer for %s in time", s.cfg.Name, what)
	}
	if overFrameLimit(err) {
		return fmt.Errorf("the MCP server %q could not give %s: %s", s.cfg.Name, what, frameLimitNote().English)
	}
	return fmt.Errorf("the MCP server %q could not give %s: %s", s.cfg.Name, what, scrub(err.Error(), s.secrets))
}
