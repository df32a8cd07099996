package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"airlock/backend/redact"
	"airlock/backend/tools"
)

// convertResult turns an MCP result into what the model reads and the card
// shows, within limit bytes (text, images and structured content together).
//
// Structured content that does not match the tool's output schema is kept,
// and the mismatch is said in the text; the call is not marked as failed,
// because the tool did run and whatever it changed is changed: an error
// would invite the model to run it again.
func convertResult(res *sdk.CallToolResult, output *jsonschema.Schema, limit int) tools.Output {
	b := &resultBuilder{limit: limit}
	hasText := false
	for _, c := range res.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			b.text(c.Text)
			hasText = true
		case *sdk.ImageContent:
			b.image(c.MIMEType, c.Data, "")
		case *sdk.AudioContent:
			b.note(fmt.Sprintf("[audio returned (%s, %s); it is not played or shown]", orUnknown(c.MIMEType), size(len(c.Data))))
		case *sdk.ResourceLink:
			b.note(describeLink(c))
		case *sdk.EmbeddedResource:
			hasText = b.resource(c.Resource) || hasText
		default:
			b.note("[a content item of a kind Airlock does not read]")
		}
	}
	out := tools.Output{IsError: res.IsError}
	if res.StructuredContent != nil {
		raw, err := json.Marshal(res.StructuredContent)
		switch {
		case err != nil:
			b.note("[the structured result could not be read: " + err.Error() + "]")
		case !b.fits(len(raw)):
			b.note(fmt.Sprintf("[the structured result (%s) is left out: results are capped at %s]", size(len(raw)), size(limit)))
		default:
			out.Structured = raw
			b.used += len(raw)
			if !hasText { // the model reads text only
				b.text(string(raw))
			}
			if output != nil {
				if problem := checkStructured(raw, output); problem != "" {
					b.note("[Airlock: the structured result does not match the tool's output schema: " + problem + "]")
				}
			}
		}
	} else if output != nil && !res.IsError {
		b.note("[Airlock: the tool declares an output schema but returned no structured result]")
	}
	out.Text, out.Images = b.finish(res.IsError)
	return out
}

// resultBuilder joins the parts of a result, counting them against limit.
type resultBuilder struct {
	limit, used int
	total       int // bytes seen, kept or not
	parts       []string
	images      []tools.Image
	cut         bool
}

func (b *resultBuilder) fits(n int) bool { return b.used+n <= b.limit }

func (b *resultBuilder) text(s string) {
	b.total += len(s)
	room := b.limit - b.used
	if len(s) > room {
		s = cutUTF8(s, room)
		b.cut = true
	}
	if s == "" && b.cut {
		return
	}
	b.used += len(s)
	b.parts = append(b.parts, strings.Clone(s)) // don't pin a huge result's memory
}

// note is a line Airlock writes; it is not counted against the cap.
func (b *resultBuilder) note(s string) { b.parts = append(b.parts, s) }

func (b *resultBuilder) image(mime string, data []byte, from string) {
	b.total += len(data)
	if from != "" {
		from = " " + from
	}
	if !b.fits(len(data)) {
		b.note(fmt.Sprintf("[an image%s (%s, %s) is left out: results are capped at %s]", from, orUnknown(mime), size(len(data)), size(b.limit)))
		return
	}
	b.used += len(data)
	b.images = append(b.images, tools.Image{MIME: mime, Data: data})
	b.note(fmt.Sprintf("[image returned%s (%s, %s): it is shown to the person on the card; you cannot see it]", from, orUnknown(mime), size(len(data))))
}

// resource summarises an embedded resource; it reports whether it added text.
func (b *resultBuilder) resource(r *sdk.ResourceContents) bool {
	if r == nil {
		b.note("[an empty embedded resource]")
		return false
	}
	switch {
	case r.Text != "":
		b.note(fmt.Sprintf("[resource %s%s]:", r.URI, mimeNote(r.MIMEType)))
		b.text(r.Text)
		return true
	case strings.HasPrefix(r.MIMEType, "image/") && len(r.Blob) > 0:
		b.image(r.MIMEType, r.Blob, "from resource "+r.URI)
	case len(r.Blob) > 0:
		b.note(fmt.Sprintf("[resource %s (%s, %s): binary, not shown]", r.URI, orUnknown(r.MIMEType), size(len(r.Blob))))
	default:
		b.note(fmt.Sprintf("[resource %s%s, empty]", r.URI, mimeNote(r.MIMEType)))
	}
	return false
}

func (b *resultBuilder) finish(isError bool) (string, []tools.Image) {
	if b.cut {
		b.note(fmt.Sprintf("[Airlock: the result was %s; only its first %s is kept]", size(b.total), size(b.limit)))
	}
	text := strings.Join(b.parts, "\n")
	if strings.TrimSpace(text) == "" {
		if isError {
			text = "(the tool reported an error without saying what)"
		} else {
			text = "(the tool returned nothing)"
		}
	}
	return text, b.images
}

func describeLink(l *sdk.ResourceLink) string {
	name := l.Title
	if name == "" {
		name = l.Name
	}
	s := fmt.Sprintf("[resource link: %s <%s>%s", name, l.URI, mimeNote(l.MIMEType))
	if l.Description != "" {
		s += " — " + l.Description
	}
	return s + "]"
}

// checkStructured validates structured content; "" means it matches.
func checkStructured(raw []byte, schema *jsonschema.Schema) string {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return err.Error()
	}
	if err := schema.Validate(v); err != nil {
		msg := err.Error()
		if ve, ok := err.(*jsonschema.ValidationError); ok {
			msg = leafMessage(ve)
		}
		return cutUTF8(msg, 500)
	}
	return ""
}

// leafMessage is the first specific cause, with where it is: "at /count:
// got string, want integer" rather than the whole tree.
func leafMessage(ve *jsonschema.ValidationError) string {
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	loc := "/" + strings.Join(ve.InstanceLocation, "/")
	return fmt.Sprintf("at %s: %s", loc, ve.ErrorKind.LocalizedString(englishPrinter))
}

var englishPrinter = message.NewPrinter(language.English)

func cutUTF8(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

func orUnknown(mime string) string {
	if mime == "" {
		return "unknown type"
	}
	return mime
}

func mimeNote(mime string) string {
	if mime == "" {
		return ""
	}
	return " (" + mime + ")"
}

// scrubOutput masks the server's own secrets (see resultSecrets: header
// values, URL secrets, env values that are credentials) wherever a result
// carries text: the text, and the strings
// and keys of the structured content. Only those known values: the URL and
// key=value heuristics that errors also get would garble a result's
// legitimate links (a search result's ?q=...).
func scrubOutput(out tools.Output, secrets []string) tools.Output {
	if len(secrets) == 0 {
		return out
	}
	out.Text = redact.Known(out.Text, secrets...)
	if len(out.Structured) > 0 {
		out.Structured = scrubJSON(out.Structured, secrets)
	}
	return out
}

// scrubJSON masks secrets in the strings of a JSON value, rewriting it only
// when something was masked (so numbers and key order are kept otherwise).
func scrubJSON(raw json.RawMessage, secrets []string) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return json.RawMessage(redact.Known(string(raw), secrets...))
	}
	changed := false
	var walk func(any) any
	walk = func(v any) any {
		switch v := v.(type) {
		case string:
			if s := redact.Known(v, secrets...); s != v {
				changed = true
				return s
			}
		case []any:
			for i := range v {
				v[i] = walk(v[i])
			}
		case map[string]any:
			out := make(map[string]any, len(v))
			for k, x := range v {
				out[walk(k).(string)] = walk(x)
			}
			return out
		}
		return v
	}
	v = walk(v)
	if !changed {
		return raw
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return raw
	}
	return json.RawMessage(bytes.TrimSpace(b.Bytes()))
}
