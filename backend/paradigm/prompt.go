package paradigm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"airlock/backend/chat"
	"airlock/backend/tools"
	"airlock/backend/tools/ojson"
)

// Shared pieces of the prompts and result messages.

// compactSchema renders a parameters schema as one line of JSON, keys in
// their order.
func compactSchema(raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return `{"type":"object","properties":{}}`
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

// toolList renders the tools as Markdown sections with their schemas.
func toolList(specs []tools.Spec) string {
	var b strings.Builder
	for _, s := range specs {
		fmt.Fprintf(&b, "### %s\n", s.Name)
		if d := strings.TrimSpace(s.Description); d != "" {
			b.WriteString(d)
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "Parameters (JSON Schema): %s\n\n", compactSchema(s.Parameters))
	}
	return b.String()
}

// exampleCall builds a plausible call of the first tool, for the prompt's
// example: its required arguments (or the first one), with values from the
// schema's examples, default or enum, else a placeholder of the right type.
func exampleCall(specs []tools.Spec) chat.ToolCall {
	if len(specs) == 0 {
		return chat.ToolCall{ID: "call_1", Name: "tool_name", Arguments: json.RawMessage(`{}`)}
	}
	s := specs[0]
	args := ojson.Object{}
	v, _ := ojson.Decode(s.Parameters)
	schema, _ := v.(ojson.Object)
	propsV, _ := schema.Get("properties")
	props, _ := propsV.(ojson.Object)
	var names []string
	if reqV, ok := schema.Get("required"); ok {
		if req, ok := reqV.([]any); ok {
			for _, r := range req {
				if n, ok := r.(string); ok {
					names = append(names, n)
				}
			}
		}
	}
	if len(names) == 0 && len(props) > 0 {
		names = []string{props[0].Key}
	}
	for _, n := range names {
		pv, _ := props.Get(n)
		p, _ := pv.(ojson.Object)
		args = append(args, ojson.Member{Key: n, Value: exampleValue(n, p)})
	}
	return chat.ToolCall{ID: "call_1", Name: s.Name, Arguments: ojson.Encode(args)}
}

func exampleValue(name string, p ojson.Object) any {
	if ex, ok := p.Get("examples"); ok {
		if arr, ok := ex.([]any); ok && len(arr) > 0 {
			return arr[0]
		}
	}
	if d, ok := p.Get("default"); ok {
		return d
	}
	if e, ok := p.Get("enum"); ok {
		if arr, ok := e.([]any); ok && len(arr) > 0 {
			return arr[0]
		}
	}
	typ, _ := p.Get("type")
	if arr, ok := typ.([]any); ok && len(arr) > 0 {
		typ = arr[0]
	}
	switch typ {
	case "integer", "number":
		return json.Number("1")
	case "boolean":
		return true
	case "array":
		return []any{}
	case "object":
		return ojson.Object{}
	}
	low := strings.ToLower(name)
	switch {
	case strings.Contains(low, "path") || strings.Contains(low, "file"):
		return "notes.md"
	case strings.Contains(low, "url"):
		return "https://example.com"
	case strings.Contains(low, "query"):
		return "search terms"
	}
	return "…"
}

// resultValue is the result as JSON: embedded as is when the content is a
// JSON object or array, else as a string.
func resultValue(content string) json.RawMessage {
	t := strings.TrimSpace(content)
	if len(t) > 0 && (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
		var b bytes.Buffer
		if json.Compact(&b, []byte(t)) == nil {
			return b.Bytes()
		}
	}
	return ojson.AppendString(nil, content)
}

// resultObject is {"toolCallId","name","status","result"}.
func resultObject(r chat.ToolResult) []byte {
	status := r.Status
	if status == "" {
		status = chat.ToolSuccess
	}
	var b []byte
	b = append(b, `{"toolCallId":`...)
	b = ojson.AppendString(b, r.CallID)
	b = append(b, `,"name":`...)
	b = ojson.AppendString(b, r.Name)
	b = append(b, `,"status":`...)
	b = ojson.AppendString(b, string(status))
	b = append(b, `,"result":`...)
	b = append(b, resultValue(r.Content)...)
	return append(b, '}')
}

// callObject is {"id","name","arguments"} (id left out when empty).
func callObject(c chat.ToolCall) []byte {
	var b []byte
	b = append(b, '{')
	if c.ID != "" {
		b = append(b, `"id":`...)
		b = ojson.AppendString(b, c.ID)
		b = append(b, ',')
	}
	b = append(b, `"name":`...)
	b = ojson.AppendString(b, c.Name)
	b = append(b, `,"arguments":`...)
	args := bytes.TrimSpace(c.Arguments)
	if len(args) == 0 {
		args = []byte("{}")
	}
	var cb bytes.Buffer
	if json.Compact(&cb, args) == nil {
		args = cb.Bytes()
	}
	b = append(b, args...)
	return append(b, '}')
}

// paramLines describes the parameters as a readable list (for VCP).
func paramLines(raw json.RawMessage) string {
	v, _ := ojson.Decode(raw)
	schema, _ := v.(ojson.Object)
	propsV, _ := schema.Get("properties")
	props, _ := propsV.(ojson.Object)
	if len(props) == 0 {
		return "(none)"
	}
	req := map[string]bool{}
	if reqV, ok := schema.Get("required"); ok {
		if arr, ok := reqV.([]any); ok {
			for _, r := range arr {
				if s, ok := r.(string); ok {
					req[s] = true
				}
			}
		}
	}
	var b strings.Builder
	for i, m := range props {
		p, _ := m.Value.(ojson.Object)
		typ := "any"
		if tv, ok := p.Get("type"); ok {
			switch t := tv.(type) {
			case string:
				typ = t
			case []any:
				var parts []string
				for _, e := range t {
					if s, ok := e.(string); ok {
						parts = append(parts, s)
					}
				}
				typ = strings.Join(parts, "|")
			}
		}
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "- %s (%s", m.Key, typ)
		if req[m.Key] {
			b.WriteString(", required")
		}
		b.WriteString(")")
		if d, ok := p.Get("description"); ok {
			if ds, ok := d.(string); ok && ds != "" {
				b.WriteString(": ")
				b.WriteString(ds)
			}
		}
		if e, ok := p.Get("enum"); ok {
			b.WriteString(" One of: ")
			b.Write(ojson.Encode(e))
			b.WriteString(".")
		}
		if typ == "object" || typ == "array" {
			var rest ojson.Object
			for _, pm := range p {
				if pm.Key != "description" && pm.Key != "type" {
					rest = append(rest, pm)
				}
			}
			if len(rest) > 0 {
				b.WriteString(" Schema: ")
				b.Write(ojson.Encode(p))
			}
		}
	}
	return b.String()
}
