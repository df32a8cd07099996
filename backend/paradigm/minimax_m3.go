package paradigm

import (
	"strings"

	"airlock/backend/tools/ojson"
)

// MiniMax-M3 puts a marker before every tag and names each argument by its
// tag, with nested elements for structure:
//
//	]<]minimax[>[<tool_call>
//	]<]minimax[>[<invoke name="f">]<]minimax[>[<city>Paris]<]minimax[>[</city>]<]minimax[>[</invoke>
//	]<]minimax[>[</tool_call>
//
// An element holding only <item> elements is a list; a tag repeated among
// siblings is a list; other nested elements are an object; text is text.

const (
	FormatMiniMaxM3 = "minimax_m3"
	m3Mark          = "]<]minimax[>["
)

var miniMaxM3Parser = &parser{
	families: []Family{{ID: FormatMiniMaxM3, Name: "MiniMax-M3", Models: "MiniMax-M3",
		Markers: []string{m3Mark + "<tool_call>", m3Mark + "<invoke name=", "<mm:think>"},
		Source:  "vLLM minimax_m3 tool parser; llama.cpp chat tests",
		Example: m3Mark + "<tool_call>\n" + m3Mark + "<invoke name=\"read_file\">" + m3Mark + "<path>notes.md" + m3Mark + "</path>" + m3Mark + "</invoke>\n" + m3Mark + "</tool_call>"}},
	openers: []opener{{prefix: m3Mark + "<tool_call>"}},
	read: func(s *scanner, r readAt) int {
		return s.miniMaxM3(r.j, r.hi)
	},
}

func (s *scanner) miniMaxM3(j, hi int) int {
	t := s.text
	p := j + len(m3Mark+"<tool_call>")
	closer := m3Mark + "</tool_call>"
	read := 0
	for {
		p = s.skipSpace(p, hi)
		if strings.HasPrefix(t[p:], closer) {
			return p + len(closer)
		}
		if !strings.HasPrefix(t[p:], m3Mark+"<invoke") {
			break
		}
		g, ok := s.parseTag(p+len(m3Mark), hi)
		if !ok || !isInvoke(g) {
			break
		}
		name, _ := attr(g.attrs, "name")
		args, end, ok := s.m3Children(g.end, "invoke", hi)
		it := item{name: strings.TrimSpace(name), args: args, format: FormatMiniMaxM3, start: p, end: end}
		if read == 0 {
			it.start = j
		}
		if !ok {
			it.msg = msgCutOff
		}
		s.add(it)
		read++
		p = end
		if !ok {
			return p
		}
	}
	if read == 0 {
		end := hi
		msg := msgCutOff
		if p < hi {
			msg = "This tool_call block holds no tool call Airlock can read, so nothing was run. Write each call as an invoke."
			if c := s.findIn(closer, p, hi); c >= 0 {
				end = c + len(closer)
			} else if nl := s.findIn("\n", p, hi); nl >= 0 {
				end = nl
			}
		}
		s.problem(msg, FormatMiniMaxM3, j, end)
		return end
	}
	s.closerAtEnd(p, closer, hi) // the block's closer never came
	return p
}

// m3Children reads elements from p up to the parent's closing tag and
// returns them as an object; ok is false when the text ended first.
func (s *scanner) m3Children(p int, parent string, hi int) (ojson.Object, int, bool) {
	t := s.text
	obj := ojson.Object{}
	lists := map[string]int{} // a repeated tag (or <item>) → its list's index in obj
	closer := m3Mark + "</" + parent + ">"
	for depth := 0; ; {
		p = s.skipSpace(p, hi)
		if p >= hi {
			return obj, hi, false
		}
		if strings.HasPrefix(t[p:], closer) {
			return obj, p + len(closer), true
		}
		if !strings.HasPrefix(t[p:], m3Mark+"<") || strings.HasPrefix(t[p:], m3Mark+"</") {
			return obj, p, false
		}
		g, ok := s.parseTag(p+len(m3Mark), hi)
		if !ok || depth > 64 {
			return obj, p, false
		}
		key := g.rawName[1:]
		var v any
		end := 0
		if q := s.skipSpace(g.end, hi); strings.HasPrefix(t[q:], m3Mark+"<") && !strings.HasPrefix(t[q:], m3Mark+"</") {
			kids, e, ok := s.m3Children(g.end, key, hi)
			if !ok {
				return obj, e, false
			}
			v, end = m3Value(kids), e
		} else {
			c := s.findIn(m3Mark+"</"+key+">", g.end, hi)
			if c < 0 {
				return obj, hi, false
			}
			v, end = textOf(t[g.end:c]), c+len(m3Mark+"</"+key+">")
		}
		switch i, isList := lists[key]; {
		case isList:
			obj[i].Value = append(obj[i].Value.([]any), v)
		case key == "item":
			lists[key] = len(obj)
			obj = append(obj, ojson.Member{Key: key, Value: []any{v}})
		default:
			i := len(obj) - 1
			for i >= 0 && obj[i].Key != key {
				i--
			}
			if i >= 0 {
				lists[key] = i
				obj[i].Value = []any{obj[i].Value, v}
			} else {
				obj = append(obj, ojson.Member{Key: key, Value: v})
			}
		}
		p = end
	}
}

// m3Value turns children that are all <item> into a list.
func m3Value(kids ojson.Object) any {
	if len(kids) == 1 && kids[0].Key == "item" {
		return kids[0].Value
	}
	return kids
}
