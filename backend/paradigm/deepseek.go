package paradigm

import (
	"strconv"
	"strings"

	"airlock/backend/tools/ojson"
)

// DeepSeek's tool tokens (full-width pipes and ▁, ASCII spellings read too):
//
//	V3 / R1:  <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>name
//	          ```json {…} ```<｜tool▁call▁end｜>…<｜tool▁calls▁end｜>
//	V3.1:     <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>name<｜tool▁sep｜>{…}<｜tool▁call▁end｜>…
//
// Kimi K2 (kimi.go) shares the per-call tokens and the section walk.

const (
	FormatDeepSeek = "deepseek"
	FormatStep3    = "step3" // DeepSeek's tokens around <steptml:invoke> (StepFun Step 3)
)

var deepseekParser = &parser{
	families: []Family{{ID: FormatDeepSeek, Name: "DeepSeek", Models: "DeepSeek V3, R1, V3.1",
		Markers: []string{"<｜tool▁calls▁begin｜>", "<｜tool▁call▁begin｜>", "<｜tool▁sep｜>"},
		Source:  "deepseek-ai/DeepSeek-V3 and DeepSeek-V3.1 chat templates; vLLM deepseekv3 and deepseekv31 tool parsers",
		Example: "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{\"path\": \"notes.md\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>"},
		{ID: FormatStep3, Name: "Step 3", Models: "StepFun Step 3",
			Markers: []string{"<｜tool_calls_begin｜>", "<steptml:invoke name=", "<steptml:parameter name="},
			Source:  "stepfun-ai/Step3 chat template; vLLM step3 tool parser; SGLang step3 detector",
			Example: "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"read_file\"><steptml:parameter name=\"path\">notes.md</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>"}},
	openers: []opener{{tag: "|tool_calls_begin|"}, {tag: "|tool_call_begin|"}},
	read: func(s *scanner, r readAt) int {
		return s.tokenCalls(r.j, r.g, r.hi)
	},
}

// tokenCalls reads a section of token calls (or one call without its
// section opener) and returns its end.
func (s *scanner) tokenCalls(j int, g tag, hi int) int {
	p := g.end
	if g.name == "|tool_call_begin|" {
		p = j
	}
	end := p
	for {
		p = s.skipSpace(p, hi)
		st, ok := s.specialAt(p, hi)
		if !ok && g.name != "|tool_call_begin|" {
			// Stray text inside the section: skip to its next call.
			next, found := s.nextSpecial(p, min(hi, p+256))
			if !found || next.name != "|tool_call_begin|" {
				break
			}
			p, st, ok = next.start, next, true
		}
		if !ok {
			break
		}
		switch st.name {
		case "|tool_calls_end|", "|tool_calls_section_end|":
			return st.end
		case "|tool_call_begin|":
			e := s.tokenCall(st, hi)
			if e <= p {
				return max(end, p+1)
			}
			p, end = e, e
			continue
		}
		break
	}
	if end == g.end && g.name != "|tool_call_begin|" {
		// A section with no call token in it.
		closer := swapWord(g.rawName, "begin", "end") + ">"
		rest := strings.TrimSpace(s.text[g.end:hi])
		switch c := s.findIn(closer, g.end, hi); {
		case c >= 0 && c-g.end < 4096:
			s.problem("This tool call section holds no tool call Airlock can read, so nothing was run. Write each call between its call tokens.", sectionFamily(g), j, c+len(closer))
			return c + len(closer)
		case rest == "" || len(rest) < 256 && !strings.ContainsAny(rest, " \n"):
			s.problem(msgCutOff, sectionFamily(g), j, hi)
			return hi
		}
		return g.end
	}
	if g.name != "|tool_call_begin|" {
		s.closerAtEnd(end, swapWord(g.rawName, "begin", "end")+">", hi) // the section's end never came
	}
	return end
}

func sectionFamily(g tag) string {
	if strings.Contains(g.name, "section") {
		return FormatKimi
	}
	return FormatDeepSeek
}

// tokenCall reads one <｜tool▁call▁begin｜>…<｜tool▁call▁end｜>: the
// separator says whose it is.
func (s *scanner) tokenCall(begin tag, hi int) int {
	t := s.text
	j := begin.start
	endTok := swapWord(begin.rawName, "begin", "end") + ">"
	if end := s.tokenInvoke(j, begin.end, endTok, hi); end > 0 {
		return end // Step 3 without function<｜tool▁sep｜>
	}
	sep, ok := s.nextSpecial(begin.end, hi)
	if !ok {
		if head := strings.TrimSpace(t[begin.end:hi]); len(head) < 256 && !strings.ContainsAny(head, " \n") {
			s.problem(msgCutOff, FormatDeepSeek, j, hi)
			return hi
		}
		return -1 // the token named in prose
	}
	head := strings.TrimSpace(t[begin.end:sep.start])
	var name, id, format string
	r := sep.end
	switch sep.name {
	case "|tool_sep|":
		format = FormatDeepSeek
		if end := s.tokenInvoke(j, r, endTok, hi); end > 0 {
			return end // Step 3: an invoke instead of a name and JSON
		}
		if head == "function" || head == "" {
			// V3 / R1: the name is on the line after the separator.
			q := r
			for q < hi && q-r < 256 && t[q] != '\n' && t[q] != '`' && t[q] != '{' && t[q] != '<' {
				q++
			}
			name = strings.TrimSpace(t[r:q])
			r = q
			if end := s.tokenInvoke(j, r, endTok, hi); end > 0 {
				return end // Step 3 with the name before its invoke
			}
		} else {
			name = head
		}
	case "|tool_call_argument_begin|":
		format = FormatKimi
		id, name = head, kimiName(head)
		if !kimiID(head) {
			end := hi
			if e := s.findIn(endTok, sep.end, hi); e >= 0 {
				end = e + len(endTok)
			}
			s.problem("The call id "+strconv.Quote(head)+" is not functions.NAME:INDEX, so the call was not run.", FormatKimi, j, end)
			return end
		}
	case "|tool_call_end|":
		// Kimi with its argument token stripped: functions.name:0 {…}.
		f := strings.Fields(head)
		if len(f) == 0 || !kimiID(f[0]) || !strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(head, f[0])), "{") {
			s.problem("This tool call has no tool name, so it was not run.", FormatDeepSeek, j, sep.start)
			return sep.start
		}
		format = FormatKimi
		id, name = f[0], kimiName(f[0])
		r = strings.Index(t[begin.end:], f[0]) + begin.end + len(f[0])
	default:
		s.problem("This tool call has no tool name, so it was not run.", FormatDeepSeek, j, sep.start)
		return sep.start
	}
	a := s.skipSpace(r, hi)
	fenced := false
	if strings.HasPrefix(t[a:], "```") {
		fenced = true
		if e := s.findIn("\n", a, hi); e >= 0 {
			a = s.skipSpace(e+1, hi)
		}
	}
	var args ojson.Object
	end := a
	msg := ""
	switch {
	case a >= hi:
		msg = msgCutOff
		end = hi
	case t[a] == '{':
		rd := s.readJSON(a, hi, endTok, false)
		end = rd.end
		if !rd.ok() {
			msg = rd.msg
		} else if o, isObj := rd.vals[0].(ojson.Object); isObj {
			args = o
		} else {
			msg = "The arguments of " + strconv.Quote(name) + " must be a JSON object, so the call was not run."
		}
	case t[a] == '"':
		// Arguments written as a JSON string holding the object.
		rd := s.readJSONString(a, hi)
		end = rd.end
		if o, ok := decodeArgString(rd.str); rd.ok && ok {
			args = o
		} else {
			msg = "The arguments of " + strconv.Quote(name) + " are not a JSON object, so the call was not run."
		}
	case strings.HasPrefix(t[a:], endTok):
		args = ojson.Object{}
	default:
		msg = "The arguments of " + strconv.Quote(name) + " are not a JSON object, so the call was not run."
		if e := s.findIn(endTok, a, hi); e >= 0 {
			end = e
		} else {
			end = hi
		}
	}
	q := s.skipSpace(end, hi)
	if fenced && strings.HasPrefix(t[q:], "```") {
		q = s.skipSpace(q+3, hi)
	}
	if strings.HasPrefix(t[q:], endTok) {
		end = q + len(endTok)
	} else {
		s.closerAtEnd(end, endTok, hi)
	}
	if name == "" && msg == "" {
		msg = "This tool call has no tool name, so it was not run."
	}
	s.add(item{id: id, name: name, args: args, msg: msg, format: format, start: j, end: end})
	return end
}

// tokenInvoke reads an invoke (Step 3's <steptml:invoke>) at k, after blanks,
// as the call that opened at j; -1 when there is none.
func (s *scanner) tokenInvoke(j, k int, endTok string, hi int) int {
	a := s.skipSpace(k, hi)
	if a >= hi || s.text[a] != '<' {
		return -1
	}
	g, ok := s.parseTag(a, hi)
	if !ok || !isInvoke(g) {
		return -1
	}
	n := len(s.items)
	end := s.invokeIn(a, g, "", hi, false)
	if end <= a || len(s.items) == n {
		return -1
	}
	if q := s.skipSpace(end, hi); strings.HasPrefix(s.text[q:], endTok) {
		end = q + len(endTok)
	}
	s.items[n].start, s.items[n].end = j, end
	return end
}
