package paradigm

import (
	"airlock/backend/tools"
	"strings"
)

// Values of the XML-ish formats (Qwen3-Coder's <parameter=…>, <invoke>'s
// <parameter name=…>, GLM's <arg_value>, Cline's <path>, VCP's 「始」…「末」)
// are raw text up to a closer. Models get two things wrong, and a value can
// hold a third:
//
//   - the closer is forgotten: the next sibling's opener ends the value;
//   - the message ends inside the value: the call was cut off;
//   - the value contains the format's own markers (a model writing about its
//     own format, a file of XML): openers and closers inside it pair up, and
//     a closer that is not followed by what may follow a value (a sibling,
//     the parent's closer, the end) is text.
//
// So a value ends at the first closer that is not paired with an opener
// inside the value and is followed by what may follow; failing that, at the
// first sibling opener (its closer was forgotten), the first closer, the
// wrapper's closer, or the end of the text.

type valueSpec struct {
	closer string   // "</parameter>"
	next   []string // what may follow the closer after blanks: siblings' openers, the parent's closer
	stop   string   // the sibling opener that ends a value whose closer was forgotten ("<parameter")
	end    string   // the parent's closer, which ends such a value too ("</function>")
	weak   string   // the wrapper's closer: ends the value only when nothing else does
	anyTag bool     // any opening tag may follow (Cline's next argument)
	anyKey bool     // a key and its colon may follow (VCP's next field)
}

// valueEnd finds where the value starting at vs ends. next is where reading
// goes on (after the closer); complete is false when the text ended first.
func (s *scanner) valueEnd(vs, hi int, v valueSpec) (end, next int, complete bool) {
	if cd := s.cdataEnd(vs, hi); cd > 0 {
		// <![CDATA[…]]>: the closer comes after it, whatever it holds.
		if c := s.findIn(v.closer, cd, hi); c >= 0 && strings.TrimSpace(s.text[cd:c]) == "" {
			return c, c + len(v.closer), true
		}
	}
	if c, ok := s.pairedCloser(vs, hi, v); ok {
		return c, c + len(v.closer), true
	}
	// The closer was forgotten, or is only followed by something else: the
	// value ends at whichever comes first of its closer, a sibling's opener
	// and the wrapper's closer.
	s.guesses++
	first, cut := s.findIn(v.closer, vs, hi), -1
	for _, m := range []string{v.stop, v.end, v.weak} {
		if at := s.findIn(m, vs, hi); m != "" && at >= 0 && (cut < 0 || at < cut) {
			cut = at
		}
	}
	switch {
	case cut >= 0 && (first < 0 || cut < first):
		return cut, cut, true
	case first >= 0:
		return first, first + len(v.closer), true
	}
	s.cutValues++ // the message ended inside the value
	return hi, hi, false
}

// pairedCloser walks the openers and closers after vs, pairing them, and
// returns the first unpaired closer followed by what may follow a value.
// The walk draws on the scan's budget; when it runs out the simpler rules
// of valueEnd decide.
func (s *scanner) pairedCloser(vs, hi int, v valueSpec) (int, bool) {
	if s.budget <= 0 {
		return 0, false
	}
	t := s.text[:hi]
	depth := 0
	nextStop := -2
	for p := vs; p < hi; {
		c := strings.Index(t[p:], v.closer)
		if c < 0 {
			s.budget -= hi - p
			return 0, false
		}
		c += p
		if v.stop != "" && nextStop < p && nextStop != -1 {
			nextStop = strings.Index(t[p:], v.stop)
			if nextStop >= 0 {
				nextStop += p
			}
		}
		if nextStop >= 0 && nextStop < c {
			depth++
			s.budget -= nextStop + len(v.stop) - p
			p = nextStop + len(v.stop)
		} else {
			if depth == 0 && s.followsValue(c+len(v.closer), hi, v) {
				s.budget -= c - p
				return c, true
			}
			if depth > 0 {
				depth--
			}
			s.budget -= c + len(v.closer) - p
			p = c + len(v.closer)
		}
		if s.budget < 0 {
			return 0, false
		}
	}
	return 0, false
}

// followsValue says what comes at p (after blanks) may follow a value.
func (s *scanner) followsValue(p, hi int, v valueSpec) bool {
	t := s.text
	p = s.skipSpace(p, hi)
	if p >= hi {
		return true
	}
	if v.weak != "" && strings.HasPrefix(t[p:], v.weak) {
		return true
	}
	for _, n := range v.next {
		if strings.HasPrefix(t[p:], n) {
			return true
		}
	}
	if v.anyKey {
		if k, _ := vcpKey(t, p, hi); k != "" {
			return true
		}
	}
	return v.anyTag && t[p] == '<' && p+1 < hi && (t[p+1] >= 'a' && t[p+1] <= 'z' || t[p+1] >= 'A' && t[p+1] <= 'Z')
}

// cdataEnd returns the end of a <![CDATA[…]]> section that opens the value
// at vs (after blanks), or -1.
func (s *scanner) cdataEnd(vs, hi int) int {
	p := s.skipSpace(vs, hi)
	if !strings.HasPrefix(s.text[p:hi], "<![CDATA[") {
		return -1
	}
	e := s.findIn("]]>", p+9, hi)
	if e < 0 {
		return -1
	}
	return e + 3
}

// valueText is the value between vs and end: a CDATA section's content,
// or the text with the line breaks that put it on its own lines removed
// (one after the opener and, when there was one, one before the closer).
// trimAll trims all surrounding blanks instead.
func (s *scanner) valueText(vs, end int, trimAll bool) string {
	v := s.text[vs:end]
	if tv := strings.TrimSpace(v); strings.HasPrefix(tv, "<![CDATA[") && strings.HasSuffix(tv, "]]>") {
		return tv[9 : len(tv)-3]
	}
	if trimAll {
		return strings.TrimSpace(v)
	}
	return trimOneNewline(v)
}

// textOf is a value of a text format, for the schema to decide on: a list
// or object literal in it is read ahead (in JSON or Python spelling).
func textOf(v string) tools.Text {
	t := tools.Text{S: v}
	tv := strings.TrimSpace(v)
	if tv == "" || tv[0] != '{' && tv[0] != '[' || len(tv) > 1<<20 {
		return t
	}
	for _, cand := range []string{tv, strings.ReplaceAll(tv, `\"`, `"`)} {
		// As written, or escaped once more than it should be ([{\"id\": 1}]).
		p := &pyParser{t: cand, hi: len(cand)}
		if lit, ok := p.value(); ok {
			if p.ws(); p.i == len(cand) {
				t.Lit = lit
				break
			}
		}
	}
	return t
}
