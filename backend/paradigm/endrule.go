package paradigm

import (
	"strconv"
	"strings"
	"sync"

	"airlock/backend/tools"
	"airlock/backend/tools/ojson"
)

// The end of the message. A call whose syntax the message ended inside is
// one of two things:
//
//   - cut off: the message ended right after the call's opener and name, or
//     inside a value (a string, a number, a list, a tag's text). It is a
//     problem card that shows what arrived, never a runnable card;
//   - repaired: every value is complete and only closers are missing (the
//     last } or ], the closing tag, the closing fence). It is a normal card
//     marked repaired ("repaired: closers added"), which a person must
//     approve: no rule runs it by itself.
//
// Parsers mark what they see (values.go counts values the end cut,
// afterCloser the closers the message ended without, lenient.go the JSON
// payloads whose brackets it added); endRule decides once the walk is done.

// endRule applies the end of the message to the items found.
func (s *scanner) endRule() {
	for i := range s.items {
		it := &s.items[i]
		if it.msg != "" {
			continue
		}
		if it.cutValue {
			it.msg = cutOffMsg(it.name, "inside a value")
			continue
		}
		rest := s.text[min(it.end, len(s.text)):]
		m3Cut := it.format == FormatMiniMaxM3 && strings.TrimSpace(rest) == "]" // the start of ]<]minimax[>[
		if !unfinishedTail(rest) && !m3Cut {
			continue // more text follows: the closer was forgotten, not cut
		}
		missing := it.closersAdded || it.unclosed && !stopCloser[it.format] || partialMarker(rest) || m3Cut
		if len(it.args) == 0 {
			if missing && !emptyArgsArrived(s.text[it.start:min(it.end, len(s.text))]) {
				it.msg = cutOffMsg(it.name, "right after the name of the tool")
			}
			if missing {
				it.repaired, it.open = true, true
			}
			continue
		}
		if missing {
			it.repaired, it.open = true, true
		}
	}
}

// closerAtEnd notes that the message ended where closer belongs, after p:
// nothing but blanks, or the beginning of the closer, follows.
func (s *scanner) closerAtEnd(p int, closer string, hi int) {
	if before := strings.TrimRight(s.text[:min(p, hi)], " \t\r\n"); closer == "" || hi != len(s.text) || p > hi || strings.HasSuffix(before, closer) || strings.HasSuffix(before, "/>") {
		return // not at the end, or the closer came already, or the call closed itself (… />)
	}
	r := strings.TrimSpace(s.text[p:hi])
	r = strings.TrimSpace(strings.TrimLeft(r, "}]\"")) // what afterCloser lets stand before the closer
	if len(r) < len(closer) && strings.HasPrefix(closer, r) {
		s.endMissing++
	}
}

// identPrefix says w may be the beginning of a key or a name the message
// ended inside ("pa" of "path", "to" of "tools").
func identPrefix(w string) bool {
	if len(w) > 24 {
		return false
	}
	for i := 0; i < len(w); i++ {
		if !isIdentByte(w[i]) && w[i] != ':' {
			return false
		}
	}
	return true
}

// stopCloser: families whose closer is a stop token servers strip
// (Harmony's <|call|>): a
// call of theirs that ends without one is complete.
var stopCloser = map[string]bool{FormatHarmony: true}

// emptyArgsArrived says the raw text of a call without arguments shows its
// empty argument list ({} or ()): more than the opener and the name arrived.
func emptyArgsArrived(raw string) bool {
	r := squash(raw)
	return strings.Contains(r, "{}") || strings.Contains(r, "()")
}

// cutOffMsg says a call was cut off, and where.
func cutOffMsg(name, where string) string {
	if strings.TrimSpace(name) == "" {
		return msgCutOff
	}
	return "The call of " + strconv.Quote(strings.TrimSpace(name)) + " was cut off " + where + ", before it was complete, so it was not run. Send the whole call again."
}

// unfinishedTail says what follows a call is nothing, or a marker the
// message ended inside ("</tool_c").
func unfinishedTail(rest string) bool {
	r := strings.TrimSpace(rest)
	return r == "" || partialMarker(rest) || openersOnly(r)
}

// openersOnly says r is whole markers that open something (the next
// argument's <|tool_arg:start|>), no closer among them: the message ended
// before what they open.
func openersOnly(r string) bool {
	if len(r) > 64 || strings.ContainsAny(r, " \t\r\n{}\"'(=,;") || r[0] != '<' || r[len(r)-1] != '>' {
		return false
	}
	l := strings.ToLower(r)
	return !strings.Contains(l, "</") && !strings.Contains(l, "end") && !strings.Contains(l, "close")
}

// partialMarker says rest (after blanks) is a marker cut short: one short
// word of marker characters with no closing '>' of its own ("</too",
// "<|tool_call_end|", "[END_TOOL", "]<]minimax[>[</inv").
func partialMarker(rest string) bool {
	r := strings.TrimSpace(rest)
	const m3 = "]<]minimax[>["
	if len(r) >= 2 && strings.HasPrefix(m3, r) {
		return true // MiniMax-M3's tag prefix, cut
	}
	for strings.HasPrefix(r, m3) {
		r = strings.TrimSpace(r[len(m3):]) // MiniMax-M3 prefixes each tag
		if r == "" {
			return true
		}
	}
	if r == "" || len(r) > 64 || strings.ContainsAny(r, "\r\n") {
		return false
	}
	if strings.ContainsAny(r, " \t") && (r[0] != '<' || strings.Contains(r, ">")) {
		return false
	}
	switch r[0] {
	case '<', '[', ']', '}', ')', '`', '|', '~':
	default:
		if !strings.HasPrefix(r, "」") && !strings.HasPrefix(r, "「") && !strings.HasPrefix(r, "<｜") {
			return false
		}
	}
	if r[0] == '<' && !strings.Contains(r, ">") && len(r) <= 64 {
		return true // a tag cut inside its attributes: <parameter name="pa
	}
	if strings.ContainsAny(r, "{}\"'(=,;") {
		return false // content, not a marker
	}
	if k := strings.LastIndexByte(r, '>'); k >= 0 && k+1 < len(r) && r[k+1] != '<' && r[k+1] != '[' && r[k+1] != ']' && !identPrefix(r[k+1:]) && !strings.Contains(r[k+1:], "<") {
		return false // whole markers, then text
	}
	if strings.Trim(r, "`~") == "" && len(r) >= 3 {
		return false // a whole fence
	}
	if strings.HasSuffix(r, "]") && strings.Count(r, "[") <= strings.Count(r, "]") {
		return false // a whole [MARKER], or stray brackets
	}
	if strings.HasSuffix(r, "<|close|>") || strings.HasSuffix(r, "<|open|>") {
		return true // Kimi K3's closer is <|close|>word<|sep|>
	}
	if strings.HasSuffix(r, ">") && strings.Count(r, "<") <= strings.Count(r, ">") {
		// A whole marker: a stray closer after the call, not a cut one.
		return false
	}
	return true
}

// closersMissing compares what follows the call's last value with what
// follows it in its family's example: when that is only a beginning of the
// example's closers, the message ended before them.
func (s *scanner) closersMissing(it *item) bool {
	want, ok := exampleTails()[it.format]
	if !ok || len(it.args) == 0 {
		return false
	}
	v := valueString(it.args[len(it.args)-1].Value)
	if v == "" {
		return false
	}
	raw := s.text[it.start:min(it.end, len(s.text))]
	k := strings.LastIndex(raw, v)
	if k < 0 {
		return false
	}
	got := squash(raw[k+len(v):] + s.text[min(it.end, len(s.text)):])
	return len(got) < len(want) && strings.HasPrefix(want, got)
}

// valueString is a value as the text spells it, near enough to find it.
func valueString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case tools.Text:
		return strings.TrimSpace(x.S)
	}
	return strings.TrimSpace(string(ojson.Encode(v)))
}

// squash drops blanks, so closers compare whatever their layout.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)
}

var (
	tailsOnce sync.Once
	tails     map[string]string
)

// exampleTails maps each family to what follows the last value of the call
// in its example (its closers, blanks dropped).
func exampleTails() map[string]string {
	tailsOnce.Do(func() {
		tails = map[string]string{}
		for _, f := range Formats() {
			ex := strings.TrimSpace(f.Example)
			sc := newScanner(ex, familySet{all: true})
			sc.run(0, len(ex), ctxTop)
			if len(sc.items) != 1 || sc.items[0].msg != "" || len(sc.items[0].args) == 0 {
				continue
			}
			it := sc.items[0]
			v := valueString(it.args[len(it.args)-1].Value)
			if v == "" {
				continue
			}
			k := strings.LastIndex(ex, v)
			if k < 0 {
				continue
			}
			tails[it.format] = squash(ex[k+len(v):])
		}
	})
	return tails
}

// missingClosers returns the brackets that close the JSON text p when the
// text ends with every value complete (a closed string, a closed object or
// list, true, false or null), and ok false when it ends inside a value (a
// string, a number, a key without its value) or inside a list that is not
// the outermost one (more elements may have been coming).
func missingClosers(p string) (string, bool) {
	var stack []byte
	var inStr byte
	esc := false
	keyLast := false // the last thing read is an object key
	afterColon := []bool{}
	lastEnd := byte(0) // '"' a string, 'c' a container, 'l' a literal, 'n' a number, other: punctuation
	word := ""
	for i := 0; i < len(p); i++ {
		c := p[i]
		if inStr != 0 {
			if esc {
				esc = false
			} else if c == '\\' {
				esc = true
			} else if c == inStr {
				inStr = 0
				lastEnd = '"'
				if n := len(stack); n > 0 && stack[n-1] == '{' && !afterColon[n-1] {
					keyLast = true
				}
			}
			continue
		}
		if isIdentByte(c) || c == '-' || c == '.' || c == '+' {
			word += string(c)
			continue
		}
		if word != "" {
			lastEnd = wordEnd(word)
			word = ""
		}
		switch c {
		case ' ', '\t', '\n', '\r':
		case '"', '\'':
			inStr = c
			keyLast = false
		case '{', '[':
			stack = append(stack, c)
			afterColon = append(afterColon, false)
			keyLast = false
			lastEnd = c
		case '}', ']':
			if len(stack) == 0 {
				return "", false
			}
			stack = stack[:len(stack)-1]
			afterColon = afterColon[:len(afterColon)-1]
			lastEnd = 'c'
			keyLast = false
		case ':':
			if n := len(stack); n > 0 {
				afterColon[n-1] = true
			}
			keyLast = false
			lastEnd = c
		case ',':
			if n := len(stack); n > 0 && stack[n-1] == '{' {
				afterColon[n-1] = false
			}
			lastEnd = c
		default:
			return "", false
		}
	}
	if word != "" {
		lastEnd = wordEnd(word)
	}
	if inStr != 0 || keyLast || len(stack) == 0 || len(stack) > ojson.MaxDepth {
		return "", false
	}
	if lastEnd != '"' && lastEnd != 'c' && lastEnd != 'l' {
		return "", false
	}
	for _, b := range stack[1:] {
		if b == '[' {
			return "", false // a list inside the payload may have been cut
		}
	}
	var b strings.Builder
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i] == '{' {
			b.WriteByte('}')
		} else {
			b.WriteByte(']')
		}
	}
	return b.String(), true
}

// wordEnd classifies a bare word that ends a value: a complete literal, or
// a number (which the end of the message may have cut).
func wordEnd(w string) byte {
	switch w {
	case "true", "false", "null", "True", "False", "None":
		return 'l'
	}
	return 'n'
}
