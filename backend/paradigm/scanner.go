package paradigm

import (
	"strings"
	"unicode/utf8"

	"airlock/backend/tools/ojson"
)

// The scanner walks the message once, left to right. At each byte that can
// open something (a tag, a bracket, a brace, a code fence) it asks the
// recognisers; one that matches consumes its whole span (string-aware, so a
// closing tag inside a JSON string doesn't end the call) and the walk goes on
// after it. Reasoning blocks, code fences in other languages and labelled
// examples are skipped whole.
//
// Linear time: every search for a closing marker goes through find, whose
// per-needle cache makes repeated forward searches cost O(n) in total, and
// string-aware JSON scanning draws on a budget proportional to the length of
// the message; when it runs out, extents fall back to plain searches.

type scanCtx int

const (
	ctxTop   scanCtx = iota // the message itself
	ctxFence                // inside a code fence judged to hold calls
)

type finderEntry struct{ from, at int }

type scanner struct {
	text    string
	set     fmtSet
	items   []item
	ignored []Ignored
	budget  int
	finds   map[string]finderEntry
	// sawThink is set once any reasoning marker was seen: after that, a
	// stray closing tag is prose, not "everything before was reasoning".
	sawThink bool
	// noCloseFrom[n] memoises a failed search for the end of an inline
	// code span opened by n backticks: from there to the end of its line
	// there is no closing run.
	noCloseFrom [8]int
}

func newScanner(text string, set fmtSet) *scanner {
	s := &scanner{text: text, set: set, budget: 16*len(text) + 1<<20, finds: map[string]finderEntry{}}
	for i := range s.noCloseFrom {
		s.noCloseFrom[i] = -1
	}
	return s
}

// find returns the first index ≥ from of needle in text, or -1. Forward
// queries for the same needle reuse the previous answer.
func (s *scanner) find(needle string, from int) int {
	if from > len(s.text) {
		return -1
	}
	if e, ok := s.finds[needle]; ok && from >= e.from && (e.at < 0 || from <= e.at) {
		return e.at
	}
	at := strings.Index(s.text[from:], needle)
	if at >= 0 {
		at += from
	}
	s.finds[needle] = finderEntry{from, at}
	return at
}

// findIn is find limited to [from, hi): the start of a match must leave the
// whole needle before hi.
func (s *scanner) findIn(needle string, from, hi int) int {
	at := s.find(needle, from)
	if at < 0 || at+len(needle) > hi {
		return -1
	}
	return at
}

var trigger = func() (t [256]bool) {
	for _, c := range "<[{`~" {
		t[c] = true
	}
	return
}()

func nextTrigger(t string, i, hi int) int {
	for ; i+8 <= hi; i += 8 {
		if trigger[t[i]] || trigger[t[i+1]] || trigger[t[i+2]] || trigger[t[i+3]] ||
			trigger[t[i+4]] || trigger[t[i+5]] || trigger[t[i+6]] || trigger[t[i+7]] {
			break
		}
	}
	for ; i < hi; i++ {
		if trigger[t[i]] {
			return i
		}
	}
	return hi
}

func (s *scanner) run(lo, hi int, ctx scanCtx) {
	t := s.text
	i := lo
	for i < hi {
		j := nextTrigger(t, i, hi)
		if j >= hi {
			return
		}
		next := -1
		switch t[j] {
		case '`', '~':
			if ctx == ctxTop {
				next = s.fenceOrCode(j, hi)
			}
		case '<':
			if j > lo && t[j-1] == '`' {
				break // `<tool_call>` quoted in prose
			}
			next = s.angle(j, hi, ctx)
		case '[':
			if j > lo && t[j-1] == '`' {
				break
			}
			next = s.bracket(j, hi, ctx)
		case '{':
			next = s.brace(j, hi, ctx)
		}
		if next <= j {
			next = j + 1
		}
		i = next
	}
}

// add records a call or problem. At the top level, a labelled example is
// reported as ignored instead.
func (s *scanner) add(it item) {
	if it.end < it.start {
		it.end = it.start
	}
	if it.args != nil {
		// Recognisers append keys; a repeated key keeps its last value.
		it.args, _ = ojson.DedupDeep(it.args).(ojson.Object)
	}
	s.items = append(s.items, it)
}

func (s *scanner) problem(msg, format string, start, end int) {
	s.add(item{msg: msg, format: format, start: start, end: end})
}

func (s *scanner) ignore(start, end int, reason string) {
	if end <= start {
		return
	}
	if n := len(s.ignored); n > 0 && s.ignored[n-1].Reason == reason && s.ignored[n-1].End >= start {
		s.ignored[n-1].End = max(end, s.ignored[n-1].End)
		return
	}
	if len(s.ignored) < 1000 {
		s.ignored = append(s.ignored, Ignored{Start: start, End: end, Reason: reason})
	}
}

// guard runs a recogniser for an opener at j and, at the top level, drops
// what it found if the prose around it says it is only an example.
func (s *scanner) guard(j int, ctx scanCtx, rec func() int) int {
	if ctx == ctxTop && s.exampleBefore(j) {
		n := len(s.items)
		end := rec()
		if end > j {
			s.items = s.items[:n]
			s.ignore(j, end, "example")
		}
		return end
	}
	n := len(s.items)
	end := rec()
	if ctx == ctxTop && end > j && len(s.items) > n && s.exampleAfter(end) {
		s.items = s.items[:n]
		s.ignore(j, end, "example")
	}
	return end
}

// --- helpers on text -------------------------------------------------------

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (s *scanner) skipSpace(i, hi int) int {
	for i < hi && isSpace(s.text[i]) {
		i++
	}
	return i
}

func (s *scanner) hasPrefix(i int, p string) bool {
	return i >= 0 && i <= len(s.text) && strings.HasPrefix(s.text[i:], p)
}

// prevSig returns the last non-blank byte before i on the same line (0 at
// a line start). It looks back at most 16 bytes, so it costs O(1).
func (s *scanner) prevSig(i, lo int) byte {
	for k := i - 1; k >= lo && k >= i-16; k-- {
		c := s.text[k]
		switch c {
		case ' ', '\t':
			continue
		case '\n', '\r':
			return 0
		}
		return c
	}
	if i-16 <= lo {
		return 0
	}
	return 'x'
}

// atLineStart reports whether only blanks (at most 16) precede i on its line.
func (s *scanner) atLineStart(i, lo int) bool { return s.prevSig(i, lo) == 0 }

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// ident reads a tool name at i: letters, digits, '_', '-', '.', ':' and
// non-ASCII letters, at most 128 bytes.
func (s *scanner) ident(i, hi int) (string, int) {
	k := i
	for k < hi && k-i < 128 {
		c := s.text[k]
		if isIdentByte(c) || c == '-' || c == '.' || c == ':' {
			if c >= 0x80 {
				r, size := utf8.DecodeRuneInString(s.text[k:])
				if !isLetterRune(r) {
					break
				}
				k += size
				continue
			}
			k++
			continue
		}
		break
	}
	// A name does not end with '.' or ':' (punctuation of the prose).
	for k > i && (s.text[k-1] == '.' || s.text[k-1] == ':') {
		k--
	}
	return s.text[i:k], k
}

func isLetterRune(r rune) bool {
	if r == utf8.RuneError {
		return false
	}
	// CJK and other letters are fine in names; punctuation blocks are not.
	switch {
	case r >= 0x2000 && r <= 0x206F, r >= 0x3000 && r <= 0x303F, r >= 0xFF00 && r <= 0xFF65, r == 0x25C1, r == 0x25B7:
		return false
	}
	return true
}

// --- code fences and inline code --------------------------------------------

// Fence languages that may hold calls. Any other language (python, bash,
// go, ...) makes the block inert: code shown to the user is not a call.
var callFenceLangs = map[string]bool{
	"": true, "json": true, "json5": true, "jsonc": true, "jsonl": true, "xml": true, "text": true,
	"tool_code": true, "tool_call": true, "tool_calls": true, "tool": true, "tools": true,
	"function_call": true, "toolcall": true, "vcp": true, "plaintext": true, "txt": true,
}

func (s *scanner) fenceOrCode(j, hi int) int {
	t := s.text
	c := t[j]
	n := 0
	for j+n < hi && t[j+n] == c {
		n++
	}
	if n < 3 || !s.atLineStart(j, 0) {
		if c == '`' {
			return s.inlineCode(j, n, hi)
		}
		return j + n
	}
	// Info string: the rest of the opening line.
	eol := s.findIn("\n", j+n, hi)
	if eol < 0 {
		eol = hi
	}
	info := strings.TrimSpace(t[j+n : eol])
	if c == '`' && strings.IndexByte(info, '`') >= 0 {
		return s.inlineCode(j, n, hi) // ``` inline ``` span, not a fence
	}
	lang := strings.ToLower(info)
	if sp := strings.IndexAny(lang, " \t{"); sp >= 0 {
		lang = lang[:sp]
	}
	contentStart := min(eol+1, hi)
	fence := t[j : j+n]
	if !callFenceLangs[lang] {
		end := s.fenceClose(fence, contentStart, hi)
		s.ignore(j, end, "code")
		return end
	}
	if s.exampleBefore(j) {
		end := s.fenceClose(fence, contentStart, hi)
		s.ignore(j, end, "example")
		return end
	}
	n0 := len(s.items)
	end := s.fenceContent(lang, fence, contentStart, hi)
	if len(s.items) > n0 && s.exampleAfter(end) {
		s.items = s.items[:n0]
		s.ignore(j, end, "example")
	}
	return end
}

// fenceClose finds the end of a fence: after the closing line, or hi.
// It returns the position after the closer and where the content ends.
func (s *scanner) fenceClose(fence string, from, hi int) int {
	_, end := s.fenceCloseAt(fence, from, hi)
	return end
}

func (s *scanner) fenceCloseAt(fence string, from, hi int) (contentEnd, end int) {
	t := s.text
	for k := from; k < hi; {
		at := s.findIn(fence, k, hi)
		if at < 0 {
			return hi, hi
		}
		if s.atLineStart(at, from) {
			e := at
			for e < hi && t[e] == fence[0] {
				e++
			}
			for e < hi && (t[e] == ' ' || t[e] == '\t' || t[e] == '\r') {
				e++
			}
			if e >= hi || t[e] == '\n' {
				if e < hi {
					e++
				}
				return at, e
			}
		}
		k = at + len(fence)
		for k < hi && t[k] == fence[0] {
			k++
		}
	}
	return hi, hi
}

// fenceContent scans a fence that may hold calls and returns the position
// after its closing line.
func (s *scanner) fenceContent(lang, fence string, from, hi int) int {
	t := s.text
	k := s.skipSpace(from, hi)
	if k < hi && (t[k] == '{' || t[k] == '[') && (s.set.has(fJSON) || s.set.has(fLlama)) {
		// JSON: its extent decides where the fence ends, so a ``` inside a
		// string (raw newlines and all) can't cut it short.
		r := s.readJSON(k, hi, fence, true)
		contentEnd, end := s.fenceCloseAt(fence, max(r.end, k), hi)
		if r.ok() {
			// JSON that holds no calls is just a block shown to the user.
			s.jsonCalls(r, "", k, contentEnd, false, true)
			return end
		}
		if looksLikeCall(t[k:contentEnd]) {
			s.problem(r.msg, FormatJSON, k, contentEnd)
		}
		return end
	}
	contentEnd, end := s.fenceCloseAt(fence, from, hi)
	if (lang == "tool_code" || lang == "tool_call" || lang == "") && k < contentEnd && s.set.has(fPythonic) && isIdentByte(t[k]) {
		if s.pythonicLines(k, contentEnd, lang != "") {
			return end
		}
	}
	s.run(from, contentEnd, ctxFence)
	return end
}

// inlineCode skips a `code span` on one line. Without a closing run of the
// same length before the line ends, the backticks are literal.
func (s *scanner) inlineCode(j, n, hi int) int {
	t := s.text
	if n >= len(s.noCloseFrom) {
		return j + n
	}
	if f := s.noCloseFrom[n]; f >= 0 && j >= f {
		eol := s.findIn("\n", f, hi)
		if eol < 0 || j < eol {
			return j + n
		}
	}
	for k := j + n; k < hi; {
		c := t[k]
		if c == '\n' {
			break
		}
		if c == '`' {
			m := 0
			for k+m < hi && t[k+m] == '`' {
				m++
			}
			if m == n {
				return k + m
			}
			k += m
			continue
		}
		k++
	}
	s.noCloseFrom[n] = j
	return j + n
}
