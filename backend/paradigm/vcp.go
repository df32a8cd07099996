package paradigm

import (
	"strings"

	"airlock/backend/tools/ojson"
)

// VCP: the protocol of VCPToolBox and AIO Hub, one of Airlock's paradigms
// (vcp_paradigm.go writes its prompt and results).

var vcpParser = &parser{
	families: []Family{{ID: FormatVCP, Name: "VCP", Models: "any (VCP paradigm); VCPToolBox, AIO Hub",
		Markers: []string{vcpOpen, vcpStart, vcpEnd, vcpClose},
		Source:  "lioensky/VCPToolBox; AIO Hub tool-calling protocol",
		Example: "<<<[TOOL_REQUEST]>>>\ntool_name:「始」read_file「末」,\npath:「始」notes.md「末」\n<<<[END_TOOL_REQUEST]>>>"}},
	openers: []opener{{prefix: vcpOpen}},
	read: func(s *scanner, r readAt) int {
		return s.vcpBlock(r.j, r.hi)
	},
}

const FormatVCP = "vcp"

// vcpBlock reads one TOOL_REQUEST block at j. A value runs from 「始」 to
// the first 「末」, so an end marker inside a value doesn't end the block;
// a value without 「始」 runs to the end of its line.
func (s *scanner) vcpBlock(j, hi int) int {
	t := s.text
	p := j + len(vcpOpen)
	args := ojson.Object{}
	name := ""
	cut := false
	for {
		for p < hi && (isSpace(t[p]) || t[p] == ',') {
			p++
		}
		if p >= hi {
			break
		}
		if strings.HasPrefix(t[p:], vcpClose) {
			p += len(vcpClose)
			break
		}
		if strings.HasPrefix(t[p:], vcpOpen) {
			break // the next block: this one's end marker is missing
		}
		e := p
		colon := 0
		for e < hi && e-p < 200 && t[e] != '\n' {
			if t[e] == ':' {
				colon = 1
				break
			}
			if strings.HasPrefix(t[e:], vcpFullColon) {
				colon = len(vcpFullColon)
				break
			}
			e++
		}
		if colon == 0 {
			// Not a key line: skip it.
			if nl := s.findIn("\n", p, hi); nl >= 0 {
				p = nl + 1
				continue
			}
			p = hi
			break
		}
		key := strings.TrimSpace(t[p:e])
		q := e + colon
		for q < hi && (t[q] == ' ' || t[q] == '\t') {
			q++
		}
		var val string
		if strings.HasPrefix(t[q:], vcpStart) {
			vs := q + len(vcpStart)
			ve := s.findIn(vcpEnd, vs, hi)
			if ve < 0 {
				cut = true
				val, p = t[vs:hi], hi
			} else {
				val, p = trimOneNewline(t[vs:ve]), ve+len(vcpEnd)
			}
		} else {
			le := s.findIn("\n", q, hi)
			if le < 0 {
				le = hi
			}
			val, p = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t[q:le]), ",")), le
		}
		if strings.EqualFold(key, vcpNameKey) {
			name = strings.TrimSpace(val)
		} else if key != "" {
			args = append(args, ojson.Member{Key: key, Value: val})
		}
		if cut {
			break
		}
	}
	it := item{name: name, args: args, format: FormatVCP, start: j, end: p}
	switch {
	case cut:
		it.msg = msgCutOff
	case name == "":
		it.msg = "This TOOL_REQUEST block has no tool_name, so nothing was run. Name the tool with tool_name:「始」…「末」."
	}
	s.add(it)
	return p
}
