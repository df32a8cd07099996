package paradigm

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"airlock/backend/tools/ojson"
)

// Cline and Roo Code's tool-named XML: the tool's name is the tag and each
// argument is a child tag,
//
//	<write_to_file>
//	<path>src/a.ts</path>
//	<content>
//	…
//	</content>
//	</write_to_file>
//
// Values are raw text and may hold anything, their own closing tag
// included (values.go). Any tag could be a tool's, so a tag is read as a
// call only when its name is a tool's (the chat's tools, or Cline's and Roo
// Code's own), or when it looks like one: a snake_case name, at the start
// of a line, with at least one argument, and closed.

const FormatCline = "cline_xml"

var clineParser = &parser{
	families: []Family{{ID: FormatCline, Name: "Cline XML", Models: "models prompted by Cline, Roo Code, Kilo Code",
		Markers: []string{"<tool_name>", "<argument>…</argument>", "</tool_name>"},
		Source:  "cline/cline and RooCodeInc/Roo-Code system prompts and parseAssistantMessage",
		Example: "<read_file>\n<path>notes.md</path>\n</read_file>"}},
	openers: []opener{{any: '<'}},
	read: func(s *scanner, r readAt) int {
		return s.clineCall(r.j, r.g, r.hi)
	},
}

// clineTools are the tools Cline and Roo Code teach their models.
var clineTools = map[string]bool{
	"read_file": true, "write_to_file": true, "replace_in_file": true, "apply_diff": true, "insert_content": true,
	"search_and_replace": true, "execute_command": true, "search_files": true, "list_files": true,
	"list_code_definition_names": true, "browser_action": true, "use_mcp_tool": true, "access_mcp_resource": true,
	"ask_followup_question": true, "attempt_completion": true, "new_task": true, "plan_mode_respond": true,
	"switch_mode": true, "fetch_instructions": true, "codebase_search": true, "update_todo_list": true,
	"web_fetch": true, "load_mcp_documentation": true, "new_rule": true, "condense": true, "report_bug": true,
	"run_slash_command": true, "generate_image": true, "edit_file": true, "write_file": true,
}

func (s *scanner) clineCall(j int, g tag, hi int) int {
	t := s.text
	if g.end == 0 || g.closing || g.attrs != "" || strings.HasPrefix(g.name, "|") || strings.ContainsAny(g.name, ":.") {
		return -1
	}
	name := g.rawName[1:]
	if isResultName(name) {
		return -1 // <tool_use_result>, <function_results>: a result quoted, not a call
	}
	known := clineTools[name] || (s.known != nil && s.known(name))
	if !known && !(isSnakeName(name) && s.atLineStart(j, 0)) {
		return -1
	}
	closer := "</" + name + ">"
	args := ojson.Object{}
	cut := false
	p := g.end
	closed := false
	for {
		p = s.skipSpace(p, hi)
		if p >= hi {
			break
		}
		if strings.HasPrefix(t[p:], closer) {
			p += len(closer)
			closed = true
			break
		}
		pg, ok := s.parseTag(p, hi)
		if !ok || pg.closing || pg.attrs != "" || strings.HasPrefix(pg.name, "|") {
			break
		}
		key := pg.rawName[1:]
		spec := valueSpec{closer: "</" + key + ">", next: []string{closer}, weak: closer, anyTag: true}
		vs := pg.end
		end, next, complete := s.valueEnd(vs, hi, spec)
		if !complete {
			cut = true
		}
		args = append(args, ojson.Member{Key: key, Value: textOf(xmlUnescaped(clineValue(key, t[vs:end])))})
		p = next
		if !complete {
			break
		}
	}
	if !closed && !cut && (len(args) == 0 || !known) {
		return -1
	}
	if !known && len(args) == 0 {
		return -1
	}
	it := item{name: name, args: args, format: FormatCline, start: j, end: p, open: !closed}
	if cut {
		it.msg = msgCutOff
	}
	s.add(it)
	return p
}

// isSnakeName says name looks like a tool's: lower-case words joined by
// underscores.
func isSnakeName(name string) bool {
	if !strings.Contains(name, "_") || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return name[0] != '_' && name[len(name)-1] != '_'
}

// clineValue trims a value the way Cline and Roo Code do: a file's content
// loses only the line breaks that put it on its own lines, anything else
// its surrounding blanks.
func clineValue(key, v string) string {
	switch key {
	case "content", "diff", "result", "question":
		if strings.HasPrefix(v, "\n") {
			v = v[1:]
		}
		return strings.TrimSuffix(v, "\n")
	}
	return strings.TrimSpace(v)
}

// isResultName says a tag name names a result, not a call.
func isResultName(name string) bool {
	for _, sfx := range []string{"_result", "_results", "_response", "_output"} {
		if strings.HasSuffix(name, sfx) {
			return true
		}
	}
	return false
}

// xmlUnescaped decodes a value the model wrote XML-escaped: it holds
// entities (2&gt;/dev/null, a &amp;&amp; b) and no raw '<' or '>', and
// every '&' in it starts an entity, so it was escaped throughout. Roo Code
// decodes commands this way (unescapeHtmlEntities in executeCommandTool),
// Cline commands and file contents for some models (fixModelHtmlEscaping).
// A value with a raw '<', '>' or lone '&' was not escaped: its entities
// are text (an HTML file that shows "&lt;").
func xmlUnescaped(v string) string {
	if !strings.Contains(v, "&") || strings.ContainsAny(v, "<>") {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); {
		if v[i] != '&' {
			k := strings.IndexByte(v[i:], '&')
			if k < 0 {
				k = len(v) - i
			}
			b.WriteString(v[i : i+k])
			i += k
			continue
		}
		r, n := xmlEntity(v[i:])
		if n == 0 {
			return v // a lone '&': not escaped
		}
		b.WriteRune(r)
		i += n
	}
	return b.String()
}

// xmlEntity reads one of XML's five named entities or a character
// reference (&#39;, &#x27;) at the start of s: the character and the
// entity's length, or 0.
func xmlEntity(s string) (rune, int) {
	for _, e := range [...]struct {
		name string
		r    rune
	}{{"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}} {
		if strings.HasPrefix(s, e.name) {
			return e.r, len(e.name)
		}
	}
	if !strings.HasPrefix(s, "&#") {
		return 0, 0
	}
	end := strings.IndexByte(s, ';')
	if end < 3 || end > 10 {
		return 0, 0
	}
	num, base := s[2:end], 10
	if num[0] == 'x' || num[0] == 'X' {
		num, base = num[1:], 16
	}
	n, err := strconv.ParseUint(num, base, 32)
	if err != nil || n == 0 || n > utf8.MaxRune || !utf8.ValidRune(rune(n)) {
		return 0, 0
	}
	return rune(n), end + 1
}
