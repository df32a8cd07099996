package paradigm

import (
	"strings"

	"airlock/backend/tools/ojson"
)

// Kimi K3's XTML: every element opens with <|open|>name attrs<|sep|> and
// closes with <|close|>name<|sep|>; calls sit in a tools element,
//
//	<|open|>tools<|sep|><|open|>call tool="f" index="1"<|sep|>
//	<|open|>argument key="k" type="number"<|sep|>1<|close|>argument<|sep|>
//	<|close|>call<|sep|><|close|>tools<|sep|>
//
// An argument's type attribute says how to read its text.

const FormatKimiK3 = "kimi_k3"

var kimiK3Parser = &parser{
	families: []Family{{ID: FormatKimiK3, Name: "Kimi K3", Models: "Kimi K3",
		Markers: []string{"<|open|>tools<|sep|>", `<|open|>call tool=`, `<|open|>argument key=`},
		Source:  "llama.cpp chat tests (Kimi K3 XTML)",
		Example: `<|open|>tools<|sep|><|open|>call tool="read_file" index="1"<|sep|><|open|>argument key="path" type="string"<|sep|>notes.md<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>`}},
	openers: []opener{{prefix: "<|open|>tools<|sep|>"}, {prefix: "<|open|>toolscall "}},
	read: func(s *scanner, r readAt) int {
		return s.kimiK3(r.j, r.hi)
	},
}

const (
	k3Open  = "<|open|>"
	k3Close = "<|close|>"
	k3Sep   = "<|sep|>"
)

func (s *scanner) kimiK3(j, hi int) int {
	t := s.text
	p := j + len(k3Open+"tools"+k3Sep)
	if strings.HasPrefix(t[j:], k3Open+"toolscall ") {
		p = j // the tools and call heads run together: <|open|>toolscall tool="f"…
	}
	read := 0
	for {
		p = s.skipSpace(p, hi)
		if strings.HasPrefix(t[p:], k3Close+"tools"+k3Sep) {
			return p + len(k3Close+"tools"+k3Sep)
		}
		head, q, ok := s.k3Head(p, hi)
		if !ok || !strings.HasPrefix(head, "call ") && !strings.HasPrefix(head, "toolscall ") {
			break
		}
		name, _ := attr(head, "tool")
		it := item{name: name, args: ojson.Object{}, format: FormatKimiK3, start: p}
		if read == 0 {
			it.start = j
		}
		for {
			q = s.skipSpace(q, hi)
			if strings.HasPrefix(t[q:], k3Close+"call"+k3Sep) {
				q += len(k3Close + "call" + k3Sep)
				break
			}
			ah, vs, ok := s.k3Head(q, hi)
			if rest := strings.TrimSpace(t[q:hi]); !ok && hi == len(t) && strings.HasPrefix(k3Close+"call"+k3Sep, rest) {
				s.closerAtEnd(q, k3Close+"call"+k3Sep, hi) // only the call's closer is missing
				q = hi
				break
			}
			if !ok || !strings.HasPrefix(ah, "argument ") {
				it.msg = msgCutOff
				q = hi
				break
			}
			ve := s.findIn(k3Close+"argument"+k3Sep, vs, hi)
			if ve < 0 {
				it.msg = msgCutOff
				q = hi
				break
			}
			key, _ := attr(ah, "key")
			typ, _ := attr(ah, "type")
			it.args = append(it.args, ojson.Member{Key: key, Value: typedText(t[vs:ve], typ)})
			q = ve + len(k3Close+"argument"+k3Sep)
		}
		it.end = q
		s.add(it)
		read++
		p = q
	}
	if read == 0 {
		return -1
	}
	s.closerAtEnd(p, k3Close+"tools"+k3Sep, hi) // the section's closer never came
	return p
}

// k3Head reads <|open|>head<|sep|> at p.
func (s *scanner) k3Head(p, hi int) (head string, end int, ok bool) {
	if !strings.HasPrefix(s.text[p:], k3Open) {
		return "", p, false
	}
	e := s.findIn(k3Sep, p, min(hi, p+512))
	if e < 0 {
		return "", p, false
	}
	return s.text[p+len(k3Open) : e], e + len(k3Sep), true
}

// typedText reads a value whose format says its type: text for strings,
// JSON for anything else (kept as text when it is not JSON).
func typedText(v, typ string) any {
	switch strings.ToLower(typ) {
	case "", "string", "str", "text":
		return v
	}
	if dv, err := decodeLenient(strings.TrimSpace(v)); err == nil {
		return dv
	}
	return v
}
