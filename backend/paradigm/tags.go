package paradigm

import (
	"strings"
)

// tag is an angle-bracket construct: an XML-ish tag (<tool_call>,
// </think>, <function=name>, <invoke name="x">), a special token (<|python_tag|>,
// <｜tool▁calls▁begin｜>, Gemma's <|tool_call> and <tool_call|>), or a DSML
// tag (<｜DSML｜invoke name="x">).
type tag struct {
	name    string // normalised: lower case, ▁ → _, pipes ASCII: "tool_call", "|python_tag|", "|tool_call", "tool_call|", "dsml:invoke"
	alias   string // for a name with a namespace or a suffix, the name without it: "invoke" for "steptml:invoke", "tool_call" for "tool_call:opensource"
	closing bool
	attrs   string // after the name, before '>'
	rawName string // as written, from '<' (or '</') to the end of the name
	start   int
	end     int // after '>'
}

// closer is the closing tag matching an opening one, as spelled.
func (g tag) closer() string {
	return "</" + strings.TrimPrefix(g.rawName, "<") + ">"
}

const fullPipe = "｜" // U+FF5C, DeepSeek's tokens

func (s *scanner) parseTag(j, hi int) (tag, bool) {
	t := s.text
	g := tag{start: j}
	k := j + 1
	if k < hi && t[k] == '/' {
		g.closing = true
		k++
	}
	pipeAt := func(p int) int { // length of a pipe at p, 0 if none
		if p < hi && t[p] == '|' {
			return 1
		}
		if p+3 <= hi && t[p:p+3] == fullPipe {
			return 3
		}
		return 0
	}
	var name strings.Builder
	if n := spacedDSML(t, k, hi, pipeAt); n > 0 {
		// DSML written with spaces around its pipes (< | DSML | invoke
		// name="x">, Cherry Studio issue 14714): the same tag, spelled as
		// written so its closer is looked for in the same spelling.
		k += n
		ns2 := k
		for k < hi && k-ns2 < 64 && (isIdentByte(t[k]) && t[k] < 0x80) {
			k++
		}
		g.name = "dsml:" + asciiLower(t[ns2:k])
		g.alias = asciiLower(t[ns2:k])
		g.rawName = t[j:k]
		return s.tagAttrs(g, k, hi)
	}
	if pl := pipeAt(k); pl > 0 {
		k += pl
		// Special token: <|name|>, <|name>, <｜DSML｜name attrs>
		ns := k
		for k < hi && k-ns < 64 {
			c := t[k]
			if c == '_' || c == '"' || c == ':' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
				k++
				continue
			}
			if k+3 <= hi && t[k:k+3] == "▁" {
				k += 3
				continue
			}
			break
		}
		if k == ns {
			return g, false
		}
		word := asciiLower(t[ns:k])
		if strings.Contains(word, "▁") {
			word = strings.ReplaceAll(word, "▁", "_")
		}
		if pl2 := pipeAt(k); pl2 > 0 {
			if k+pl2 < hi && isASCIILetter(t[k+pl2]) && isASCIIWord(word) {
				// A namespace: <｜DSML｜invoke name="x">, <｜GCML｜tool_calls>
				k += pl2
				ns2 := k
				for k < hi && k-ns2 < 64 && (isIdentByte(t[k]) && t[k] < 0x80) {
					k++
				}
				if k == ns2 {
					return g, false
				}
				g.name = word + ":" + asciiLower(t[ns2:k])
				g.alias = asciiLower(t[ns2:k])
				g.rawName = t[j:k]
				return s.tagAttrs(g, k, hi)
			}
			k += pl2
			if k >= hi || t[k] != '>' {
				return g, false
			}
			g.name = "|" + word + "|"
			g.rawName = t[j:k]
			g.end = k + 1
			return g, true
		}
		if k < hi && t[k] == '>' {
			g.name = "|" + word
			g.rawName = t[j:k]
			g.end = k + 1
			return g, true
		}
		return g, false
	}
	ns := k
	if k >= hi || !(t[k] >= 'a' && t[k] <= 'z' || t[k] >= 'A' && t[k] <= 'Z') {
		return g, false
	}
	for k < hi && k-ns < 64 {
		c := t[k]
		if c == '_' || c == '-' || c == ':' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			k++
			continue
		}
		break
	}
	name.WriteString(asciiLower(t[ns:k]))
	g.rawName = t[j:k]
	if pl := pipeAt(k); pl > 0 && k+pl < hi && t[k+pl] == '>' {
		// Gemma 4's <tool_call|>
		g.name = name.String() + "|"
		g.end = k + pl + 1
		return g, true
	}
	g.name = name.String()
	if c := strings.IndexByte(g.name, ':'); c > 0 && c < len(g.name)-1 {
		if _, known := nameSpaces[g.name[:c]]; known || strings.Count(g.name, ":") > 1 {
			g.alias = g.name[strings.LastIndexByte(g.name, ':')+1:]
		} else {
			g.alias = g.name[:c]
		}
	}
	return s.tagAttrs(g, k, hi)
}

// nameSpaces are the prefixes families put before tag names
// (<steptml:invoke>, <minimax:tool_call>, <seed:tool_call>, <mm:think>);
// any other colon starts a suffix (Hunyuan's <tool_call:opensource>).
var nameSpaces = map[string]struct{}{
	"steptml": {}, "minimax": {}, "seed": {}, "mm": {}, "atem": {}, "dsml": {}, "gcml": {}, "antml": {},
}

// spacedDSML is the length of " | DSML | " at k (one optional space on
// either side of each pipe, at least one space in all) when a letter
// follows it, 0 otherwise.
func spacedDSML(t string, k, hi int, pipeAt func(int) int) int {
	p, spaces := k, 0
	sp := func() {
		if p < hi && t[p] == ' ' {
			p++
			spaces++
		}
	}
	sp()
	pl := pipeAt(p)
	if pl == 0 {
		return 0
	}
	p += pl
	sp()
	if p+4 > hi || asciiLower(t[p:p+4]) != "dsml" {
		return 0
	}
	p += 4
	sp()
	if pl = pipeAt(p); pl == 0 {
		return 0
	}
	p += pl
	sp()
	if spaces == 0 || p >= hi || !isASCIILetter(t[p]) {
		return 0
	}
	return p - k
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isASCIIWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if !isASCIILetter(w[i]) {
			return false
		}
	}
	return w != ""
}

// tagAttrs reads up to the '>' ending the tag (on the same line, within
// 256 bytes).
func (s *scanner) tagAttrs(g tag, k, hi int) (tag, bool) {
	t := s.text
	if k < hi && t[k] == '>' {
		g.end = k + 1
		return g, true
	}
	if k >= hi || !(t[k] == ' ' || t[k] == '=' || t[k] == '\t' || t[k] == '/' || strings.HasPrefix(t[k:hi], tokSpace)) {
		return g, false
	}
	lim := min(hi, k+256)
	var quote byte
	for p := k; p < lim; p++ {
		switch c := t[p]; {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\n' {
				return g, false
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			g.attrs = strings.ReplaceAll(t[k:p], tokSpace, " ")
			g.end = p + 1
			return g, true
		case c == '\n' || c == '<':
			return g, false
		}
	}
	return g, false
}

// tokSpace is how byte-level tokenizers spell a space ("Ġ", U+0120); raw
// output sometimes keeps it inside tags.
const tokSpace = "Ġ"

// attr returns the value of name="value" (or 'value', or bare) in attrs.
func attr(attrs, name string) (string, bool) {
	a := attrs
	for {
		k := strings.Index(a, name)
		if k < 0 {
			return "", false
		}
		if k > 0 && isIdentByte(a[k-1]) {
			a = a[k+len(name):]
			continue
		}
		rest := strings.TrimLeft(a[k+len(name):], " \t")
		if !strings.HasPrefix(rest, "=") {
			a = a[k+len(name):]
			continue
		}
		rest = strings.TrimLeft(rest[1:], " \t")
		if rest == "" {
			return "", true
		}
		if q := rest[0]; q == '"' || q == '\'' {
			if e := strings.IndexByte(rest[1:], q); e >= 0 {
				return rest[1 : 1+e], true
			}
			return rest[1:], true
		}
		e := strings.IndexAny(rest, " \t/")
		if e < 0 {
			e = len(rest)
		}
		return rest[:e], true
	}
}

// eqName reads the name in <function=name> or <parameter=name>.
func eqName(attrs string) (string, bool) {
	a := strings.TrimLeft(attrs, " \t")
	if !strings.HasPrefix(a, "=") {
		if v, ok := attr(attrs, "name"); ok {
			return strings.TrimSpace(v), true
		}
		return "", false
	}
	v := strings.TrimSpace(a[1:])
	v = strings.TrimSuffix(v, "/")
	v = strings.Trim(v, "\"'")
	return strings.TrimSpace(v), true
}

// specialAt reads a special token (<|x|> / <｜x｜>) at p.
func (s *scanner) specialAt(p, hi int) (tag, bool) {
	if p >= hi || s.text[p] != '<' {
		return tag{}, false
	}
	g, ok := s.parseTag(p, hi)
	if !ok || !strings.HasPrefix(g.name, "|") {
		return tag{}, false
	}
	return g, true
}

// nextSpecial finds the next special token at or after p.
func (s *scanner) nextSpecial(p, hi int) (tag, bool) {
	for p < hi {
		a := s.findIn("<|", p, hi)
		b := s.findIn("<"+fullPipe, p, hi)
		at := a
		if at < 0 || (b >= 0 && b < at) {
			at = b
		}
		if at < 0 {
			return tag{}, false
		}
		if g, ok := s.specialAt(at, hi); ok {
			return g, true
		}
		p = at + 1
	}
	return tag{}, false
}

// trimOneNewline drops the line breaks that put a value on its own lines
// (Qwen3-Coder and the XML-ish formats write <p>\nvalue\n</p>): one after
// the opener and then one before the closer.
func trimOneNewline(v string) string {
	lead := false
	if strings.HasPrefix(v, "\r\n") {
		v, lead = v[2:], true
	} else if strings.HasPrefix(v, "\n") {
		v, lead = v[1:], true
	}
	if !lead {
		return v // value starts right after the opener: its last line break is its own
	}
	if strings.HasSuffix(v, "\r\n") {
		v = v[:len(v)-2]
	} else if strings.HasSuffix(v, "\n") {
		v = v[:len(v)-1]
	}
	return v
}

// validName says whether a name could be a tool's. Bare JSON found in
// prose (strict) must have an identifier-like name; an explicit call
// syntax may have spaces ("get current weather"), repaired later.
func validName(name string, strict bool) bool {
	if name == "" || len(name) > 128 {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; c {
		case '<', '>', '{', '}', '(', ')', '[', ']', '"', '\'', '`', '\n', '\r', ',', ';', '=':
			return false
		case ' ', '\t':
			if strict {
				return false
			}
		}
	}
	return true
}
