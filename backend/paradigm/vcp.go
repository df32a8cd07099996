package paradigm

import (
	"strconv"
	"strings"

	"airlock/backend/tools/ojson"
)

// VCP: the tool-request protocol of VCPToolBox and AIO Hub, one of
// Airlock's paradigms (vcp_paradigm.go writes its prompt and results).
//
//	<<<[TOOL_REQUEST]>>>
//	tool_name:「始」write_file「末」,
//	path:「始」notes.md「末」,  // a comment after a field is ignored
//	content:「始ESCAPE」text with 「末」 or <<<[END_TOOL_REQUEST]>>> in it「末ESCAPE」,
//	archery:「始」no_reply「末」
//	<<<[END_TOOL_REQUEST]>>>
//
// A value runs to the first 「末」 followed by what may follow a value (a
// comma, the next key, the end marker); an ESCAPE value runs to its first
// 「末ESCAPE」, and the escaped spellings in it (<<<[TOOL_REQUEST_ESCAPE]>>>,
// 「始ESCAPE」, …) are restored. Values are text, their surrounding blank
// lines trimmed and the indentation of their first line kept. Several
// commands in one request (command1, filePath1, command2, …) stay one call
// with numbered keys, as VCPToolBox passes them to the plugin. The flags
// archery, ink, river and vref are not arguments. A request inside a code
// fence is an example (AIO Hub and VCPChat skip them).

var vcpParser = &parser{
	families: []Family{{ID: FormatVCP, Name: "VCP", Models: "any (VCP paradigm); VCPToolBox, AIO Hub",
		Markers: []string{vcpOpen, vcpStart, vcpEnd, vcpClose},
		Source:  "lioensky/VCPToolBox; AIO Hub tool-calling protocol",
		Example: "<<<[TOOL_REQUEST]>>>\ntool_name:「始」read_file「末」,\npath:「始」notes.md「末」\n<<<[END_TOOL_REQUEST]>>>"}},
	openers: []opener{{prefix: vcpOpen}},
	read: func(s *scanner, r readAt) int {
		if r.ctx != ctxTop {
			return -1
		}
		return s.vcpBlock(r.j, r.hi)
	},
}

const FormatVCP = "vcp"

// vcpFlags are the reserved keys that steer VCPToolBox, not the tool.
var vcpFlags = map[string]bool{"archery": true, "ink": true, "river": true, "vref": true}

// Escape fences: the opener spellings and their closers.
var vcpEscapes = []struct{ open, close string }{
	{"「始ESCAPE」", "「末ESCAPE」"}, {"{始ESCAPE}", "{末ESCAPE}"}, {"「始ESCAPE}", "「末ESCAPE}"}, {"{始ESCAPE」", "{末ESCAPE」"},
	{"「始escape」", "「末escape」"}, {"「始exp」", "「末exp」"},
}

// vcpRestore turns the escaped spellings in an ESCAPE value back.
var vcpRestore = strings.NewReplacer(
	"<<<[TOOL_REQUEST_ESCAPE]>>>", vcpOpen, "<<<[END_TOOL_REQUEST_ESCAPE]>>>", vcpClose,
	"「始ESCAPE」", vcpStart, "「末ESCAPE」", vcpEnd, "{始ESCAPE}", vcpStart, "{末ESCAPE}", vcpEnd,
)

// vcpBlock reads one TOOL_REQUEST block at j.
func (s *scanner) vcpBlock(j, hi int) int {
	t := s.text
	p := j + len(vcpOpen)
	args := ojson.Object{}
	name, msg := "", ""
	fields := 0
	closed := false
	spec := valueSpec{closer: vcpEnd, next: []string{",", "//", vcpClose, vcpOpen}, anyKey: true}
	for {
		for p < hi && (isSpace(t[p]) || t[p] == ',') {
			p++
		}
		if p >= hi {
			break
		}
		if strings.HasPrefix(t[p:], vcpClose) {
			p += len(vcpClose)
			closed = true
			break
		}
		if strings.HasPrefix(t[p:], vcpOpen) {
			break // the next block: this one's end marker is missing
		}
		key, q := vcpKey(t, p, hi)
		if key == "" {
			// A comment or stray text: skip the line (or to the end marker on it).
			nl := s.findIn("\n", p, hi)
			if nl < 0 {
				nl = hi
			}
			if c := s.findIn(vcpClose, p, hi); c >= 0 && c < nl {
				p = c
				continue
			}
			p = min(nl+1, hi)
			continue
		}
		for q < hi && (t[q] == ' ' || t[q] == '\t') {
			q++
		}
		var val string
		switch esc, ok := vcpEscapeAt(t, q); {
		case ok:
			vs := q + len(esc.open)
			ve := s.findIn(esc.close, vs, hi)
			if ve < 0 {
				msg, val, p = msgCutOff, t[vs:hi], hi
			} else {
				val, p = vcpRestore.Replace(t[vs:ve]), ve+len(esc.close)
			}
		case strings.HasPrefix(t[q:], vcpStart):
			vs := q + len(vcpStart)
			end, next, complete := s.valueEnd(vs, hi, spec)
			if !complete {
				msg = msgCutOff
				if blockEnd := s.findIn(vcpClose, vs, hi); blockEnd >= 0 {
					// No 「末」 at all: the value was never closed.
					end, next = blockEnd, blockEnd
					msg = "The value of " + strconv.Quote(key) + " has no 「末」 before <<<[END_TOOL_REQUEST]>>>, so the call was not run. Close every value with 「末」."
				}
			}
			val, p = t[vs:end], next
		default:
			// A value written without markers runs to the end of its line.
			le := s.findIn("\n", q, hi)
			if le < 0 {
				le = hi
				if hi == len(t) {
					s.cutValues++ // the message ended on the value's line
				}
			}
			val, p = strings.TrimSuffix(strings.TrimSpace(t[q:le]), ","), le
		}
		fields++
		val = vcpTrim(val)
		switch {
		case strings.EqualFold(key, vcpNameKey):
			name = strings.TrimSpace(val)
		case vcpFlags[strings.ToLower(key)]:
		default:
			args = append(args, ojson.Member{Key: key, Value: textOf(val)})
		}
		if msg == msgCutOff {
			break
		}
	}
	it := item{name: name, args: args, format: FormatVCP, start: j, end: p, msg: msg, open: !closed}
	switch {
	case it.msg != "":
	case fields == 0 && strings.TrimSpace(t[j+len(vcpOpen):hi]) == "":
		it.msg = msgCutOff // the message ends with the opener
	case fields == 0:
		return -1 // the markers named in prose
	case name == "":
		it.msg = "This TOOL_REQUEST block has no tool_name, so nothing was run. Name the tool with tool_name:「始」…「末」."
	}
	s.add(it)
	return p
}

// vcpKey reads a key and its colon (ASCII or full-width) at p: letters,
// digits, '_' and '-', on the key's own line. It returns "" when there is
// none, and where the value starts.
func vcpKey(t string, p, hi int) (string, int) {
	k := p
	for k < hi && k-p < 128 && (isASCIILetter(t[k]) || t[k] >= '0' && t[k] <= '9' || t[k] == '_' || t[k] == '-') {
		k++
	}
	if k == p {
		return "", p
	}
	q := k
	for q < hi && (t[q] == ' ' || t[q] == '\t') {
		q++
	}
	switch {
	case q < hi && t[q] == ':':
		return t[p:k], q + 1
	case strings.HasPrefix(t[q:hi], vcpFullColon):
		return t[p:k], q + len(vcpFullColon)
	}
	return "", p
}

func vcpEscapeAt(t string, q int) (struct{ open, close string }, bool) {
	for _, e := range vcpEscapes {
		if strings.HasPrefix(t[q:], e.open) {
			return e, true
		}
	}
	return struct{ open, close string }{}, false
}

// vcpTrim trims the blank lines around a value and the blanks after it,
// keeping the indentation of its first line (code survives).
func vcpTrim(v string) string {
	v = strings.TrimRight(v, " \t\r\n")
	lead := len(v) - len(strings.TrimLeft(v, " \t\r\n"))
	if nl := strings.LastIndexByte(v[:lead], '\n'); nl >= 0 {
		return v[nl+1:]
	}
	return v[lead:]
}
