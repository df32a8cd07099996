package export

import (
	"bytes"
	_ "embed"
	"html/template"
	"io"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"

	"airlock/backend/chat"
)

// The HTML export is one self-contained page that looks like the app: the
// styles are inline, there are no scripts, and nothing is loaded from
// anywhere (a Content-Security-Policy says so too, in case anything slipped
// through). What the model wrote is Markdown, rendered by goldmark (GitHub
// flavour; raw HTML in it is not passed through) and then sanitised by
// bluemonday's policy for user content. Everything else (titles, user
// messages, tool arguments and results) is text, escaped by html/template.

//go:embed export.css
var pageCSS string

// WriteHTML writes the chats as one HTML page.
func WriteHTML(w io.Writer, b Bundle, opts ...Option) error {
	o := makeOptions(opts)
	page := htmlPage{CSS: template.CSS(pageCSS), Exported: o.time(b.ExportedAt), Multi: len(b.Chats) > 1}
	switch len(b.Chats) {
	case 0:
		page.Title = "Airlock export"
	case 1:
		page.Title = title(b.Chats[0])
	default:
		page.Title = "Airlock chats"
	}
	for _, c := range b.Chats {
		hc := htmlChat{Anchor: anchor(c), Title: title(c), Meta: chatMeta(c, b, o)}
		calls := c.callsByMessage()
		for _, m := range c.ActivePath() {
			hm := htmlMessage{Who: roleName(m.Message), When: o.time(m.CreatedAt), Note: statusNote(m.Message)}
			if m.Versions > 1 {
				hm.Version = "‹ " + strconv.Itoa(m.Version) + "/" + strconv.Itoa(m.Versions) + " ›"
			}
			switch {
			case m.Kind == string(chat.KindToolResults):
				hm.Class, hm.Text = "results", m.Content
			case m.Role == string(chat.RoleUser):
				hm.Class, hm.Text = "user", m.Content
			default:
				hm.Class = m.Role
				hm.Model = m.Model
				hm.Reasoning = strings.TrimSpace(m.Reasoning)
				if strings.TrimSpace(m.Content) != "" {
					hm.HTML = renderMarkdown(m.Content)
				}
			}
			if m.Status == string(chat.StatusError) {
				hm.NoteClass = "error"
			}
			hm.Files = htmlFiles(m.Attachments)
			for _, cl := range calls[m.ID] {
				hcl := htmlCall{Name: cl.Name, State: stateName(cl.State), StateClass: cl.State,
					Arguments: prettyJSON(cl.Arguments), Problem: cl.Problem, Decision: decisionText(cl, o),
					Result: cl.Result, ResultLabel: strings.TrimSpace(strings.Trim(resultLabel(cl), " ()"))}
				if hcl.Name == "" {
					hcl.Name = "(unknown tool)"
				}
				if e := strings.TrimSpace(string(cl.Edited)); e != "" && e != "null" {
					hcl.Edited = prettyJSON(cl.Edited)
				}
				hm.Calls = append(hm.Calls, hcl)
			}
			hc.Messages = append(hc.Messages, hm)
		}
		page.Chats = append(page.Chats, hc)
	}
	return pageTemplate.Execute(w, page)
}

type htmlPage struct {
	Title, Exported string
	CSS             template.CSS
	Multi           bool
	Chats           []htmlChat
}

type htmlChat struct {
	Anchor, Title, Meta string
	Messages            []htmlMessage
}

type htmlMessage struct {
	Class, Who, When, Model, Version string
	Text                             string        // user and tool-results messages: plain text
	HTML                             template.HTML // answers: sanitised Markdown
	Reasoning                        string
	Note, NoteClass                  string
	Calls                            []htmlCall
	Files                            []htmlFile // attachments
}

type htmlCall struct {
	Name, State, StateClass                      string
	Arguments, Edited, Problem, Decision, Result string
	ResultLabel                                  string
}

var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="Airlock">
<title>{{.Title}}</title>
<style>{{.CSS}}</style>
</head>
<body>
<main>
{{- if .Multi}}
<header class="toc">
<h1>Airlock chats</h1>
<p class="meta">Exported {{.Exported}} · {{len .Chats}} chats</p>
<ol>
{{- range .Chats}}
<li><a href="#{{.Anchor}}">{{.Title}}</a></li>
{{- end}}
</ol>
</header>
{{- end}}
{{- range .Chats}}
<article class="chat" id="{{.Anchor}}">
<header>
<h1>{{.Title}}</h1>
<p class="meta">{{.Meta}}</p>
</header>
{{- range .Messages}}
<section class="msg msg-{{.Class}}">
<div class="msg-head"><span class="who">{{.Who}}</span> <time>{{.When}}</time>{{if .Model}} <span class="model">{{.Model}}</span>{{end}}{{if .Version}} <span class="version" title="other versions of this turn are in the JSON export">{{.Version}}</span>{{end}}</div>
{{- if .Files}}
<div class="files">{{range .Files}}{{if .Src}}<img class="file-image" src="{{.Src}}" alt="{{.Name}}" title="{{.Name}} · {{.Size}}">{{else}}<span class="file">📎 {{.Name}} <small>{{.Size}}</small></span>{{end}}{{end}}</div>
{{- end}}
{{- if eq .Class "user"}}
<div class="bubble">{{.Text}}</div>
{{- else if eq .Class "results"}}
<details class="results"><summary>Tool results sent to the model</summary><pre>{{.Text}}</pre></details>
{{- else}}
{{- if .Reasoning}}
<details class="reasoning"><summary>Reasoning</summary><div class="reasoning-text">{{.Reasoning}}</div></details>
{{- end}}
{{- if .HTML}}
<div class="md">{{.HTML}}</div>
{{- end}}
{{- end}}
{{- if .Note}}
<p class="note{{if .NoteClass}} {{.NoteClass}}{{end}}">{{.Note}}</p>
{{- end}}
{{- range .Calls}}
<details class="call state-{{.StateClass}}">
<summary><span class="tool">{{.Name}}</span> <span class="badge">{{.State}}</span></summary>
<div class="call-body">
<h4>Arguments</h4>
<pre>{{.Arguments}}</pre>
{{- if .Edited}}
<h4>Edited by the user before it ran</h4>
<pre>{{.Edited}}</pre>
{{- end}}
{{- if .Problem}}
<p class="problem">{{.Problem}}</p>
{{- end}}
<p class="decision"><b>Decision:</b> {{.Decision}}</p>
{{- if .Result}}
<h4>Result{{if .ResultLabel}} <span class="result-label">{{.ResultLabel}}</span>{{end}}</h4>
<pre>{{.Result}}</pre>
{{- end}}
</div>
</details>
{{- end}}
</section>
{{- end}}
</article>
{{- end}}
<footer>Exported from Airlock · {{.Exported}}</footer>
</main>
</body>
</html>
`))

// --- Markdown ---------------------------------------------------------------

var (
	mdOnce   sync.Once
	mdEngine goldmark.Markdown
	policy   *bluemonday.Policy
)

func markdownSetup() {
	mdEngine = goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(imageRenderer{}, 100))),
	)
	policy = bluemonday.UGCPolicy()
	policy.AllowDataURIImages()
	// Nothing may load from the network: an image that is not inline
	// data loses its address (the Markdown renderer already turns such
	// images into links).
	policy.RewriteSrc(func(u *url.URL) {
		if u.Scheme != "data" {
			*u = url.URL{}
		}
	})
	// GFM task lists.
	policy.AllowAttrs("type").Matching(regexp.MustCompile(`^checkbox$`)).OnElements("input")
	policy.AllowAttrs("checked", "disabled").Matching(regexp.MustCompile(`^(|checked|disabled)$`)).OnElements("input")
	policy.AddTargetBlankToFullyQualifiedLinks(true)
}

// renderMarkdown renders a model's Markdown to sanitised HTML.
func renderMarkdown(src string) template.HTML {
	mdOnce.Do(markdownSetup)
	var buf bytes.Buffer
	if err := mdEngine.Convert([]byte(src), &buf); err != nil {
		return template.HTML("<pre>" + template.HTMLEscapeString(src) + "</pre>")
	}
	return template.HTML(policy.SanitizeBytes(buf.Bytes()))
}

// imageRenderer renders Markdown images that would load from somewhere as
// links to them (the alt text, linked): an exported page never fetches
// anything by itself. Inline data images stay images.
type imageRenderer struct{}

func (imageRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindImage, func(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		n := node.(*ast.Image)
		dest := util.URLEscape(n.Destination, true)
		inline := bytes.HasPrefix(bytes.ToLower(dest), []byte("data:image/"))
		safe := !gmhtml.IsDangerousURL(dest)
		if inline && safe {
			if entering {
				w.WriteString(`<img src="`)
				w.Write(util.EscapeHTML(dest))
				w.WriteString(`" alt="`)
				w.Write(util.EscapeHTML([]byte(plainText(n, source))))
				w.WriteString(`">`)
			}
			return ast.WalkSkipChildren, nil
		}
		if entering {
			if safe {
				w.WriteString(`<a href="`)
				w.Write(util.EscapeHTML(dest))
				w.WriteString(`">`)
			}
			w.WriteString("[image: ")
		} else {
			w.WriteString("]")
			if safe {
				w.WriteString("</a>")
			}
		}
		return ast.WalkContinue, nil
	})
}

// plainText is the text of a node's inline children.
func plainText(n ast.Node, source []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			b.Write(t.Segment.Value(source))
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}
