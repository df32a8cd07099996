package paradigm

import (
	"strings"
	"unicode/utf8"

	"airlock/backend/tools/ojson"
)

// The scanner walks the message once, left to right. At each byte that can
// open something it first asks the masks (reasoning, code, mask.go), then
// the parsers registered for that opener (families.go); one that matches
// consumes its whole span (string-aware, so a closing tag inside a value
// doesn't end the call) and the walk goes on after it.
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
	on      familySet
	known   func(name string) bool // a tool of the chat's (nil: no registry)
	items   []item
	ignored []Ignored
	budget  int
	finds   map[string]finderEntry
	// sawThink is set once any reasoning marker was seen: after that, a
	// stray closing tag is prose, not "everything before was reasoning".
	sawThink bool
	// guesses counts the values whose end was guessed (values.go).
	guesses int
	// cutValues counts the values the end of the message cut (values.go);
	// endMissing the closers the message ended without (afterCloser);
	// jsonRepaired the payloads whose closing brackets were added because
	// the message ended before them (lenient.go).
	cutValues, endMissing, jsonRepaired int
	// repairs counts the payloads handed to jsonrepair (lenient.go).
	repairs int
	// moreCalls and moreProblems count what was found past maxItems.
	moreCalls, moreProblems int
	// noCloseFrom[n] memoises a failed search for the end of an inline
	// code span opened by n backticks: from there to the end of its line
	// there is no closing run.
	noCloseFrom [8]int
}

func newScanner(text string, on familySet) *scanner {
	s := &scanner{text: text, on: on, budget: 16*len(text) + 1<<20, finds: map[string]finderEntry{}}
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

// Bytes that can open something: tags and tokens, brackets, braces, code
// fences, Functionary's ">>>", the lead byte of ◁ (Kimi's ◁think▷), and the
// line break before a line of bare calls.
var trigger = func() (t [256]bool) {
	for _, c := range "<[{`~>\n" {
		t[c] = true
	}
	t[0xE2] = true
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
	from := lo // where the text not consumed by a mask or parser starts
	if lo == 0 && ctx == ctxTop {
		if end := s.lineAt(0, hi, ctx); end > 0 {
			i, from = end, end
		}
	}
	for i < hi {
		j := nextTrigger(t, i, hi)
		if j >= hi {
			return
		}
		next := s.at(j, from, hi, ctx)
		if next <= j {
			next = j + 1
		} else {
			from = next
			if n := len(s.ignored); n > 0 && s.ignored[n-1].End == next && s.ignored[n-1].Reason == "reasoning" {
				// What follows reasoning starts afresh, like a line.
				if end := s.lineAt(next, hi, ctx); end > next {
					next, from = end, end
				}
			}
		}
		i = next
	}
}

// at handles the trigger byte at j: a mask, or a parser. It returns where
// the walk goes on (≤ j: just past j).
func (s *scanner) at(j, lo, hi int, ctx scanCtx) int {
	t := s.text
	c := t[j]
	if c == '\n' {
		return s.lineAt(j+1, hi, ctx)
	}
	if (c == '`' || c == '~') && ctx == ctxTop {
		return s.fenceOrCode(j, hi)
	}
	if j > lo && t[j-1] == '`' && (c == '<' || c == '[') {
		return -1 // `<tool_call>` quoted in prose
	}
	var g tag
	hasTag := false
	if c == '<' {
		g, hasTag = s.parseTag(j, hi)
	}
	if end := s.maskAt(j, hi, ctx, g, hasTag); end > j {
		return end
	}
	if hasTag && g.closing {
		return g.end
	}
	// Tags match by name first, then by the name without its namespace or
	// suffix (<steptml:invoke> is an invoke).
	for pass := 0; pass < 2; pass++ {
		if pass == 1 && g.alias == "" {
			break
		}
		for _, o := range openers[c] {
			start := j - o.back
			if start < lo {
				continue
			}
			switch {
			case o.tag != "":
				if !hasTag || (pass == 0 && g.name != o.tag) || (pass == 1 && g.alias != o.tag) {
					continue
				}
			case pass == 1:
				continue
			case o.prefix != "":
				if !strings.HasPrefix(t[start:], o.prefix) {
					continue
				}
			}
			r := readAt{j: start, g: g, lo: lo, hi: hi, ctx: ctx, opener: o}
			if end := s.guard(start, ctx, func() int { return o.parser.read(s, r) }); end > start {
				return end
			}
		}
	}
	return -1
}

// lineAt tries the readers of lines that start with a bare name (a
// pythonic call, Functionary's recipient) on the line starting at k.
func (s *scanner) lineAt(k, hi int, ctx scanCtx) int {
	t := s.text
	for k < hi && (t[k] == ' ' || t[k] == '\t') {
		k++
	}
	if k >= hi || !isIdentByte(t[k]) || t[k] >= 0x80 {
		return -1
	}
	if ctx == ctxTop && strings.TrimSpace(t[:k]) == "" {
		if end := s.guard(k, ctx, func() int { return s.functionaryStart(k, hi) }); end > k {
			return end
		}
	}
	if ctx == ctxTop && s.known != nil {
		if end := s.guard(k, ctx, func() int { return s.glmBare(k, hi) }); end > k {
			return end
		}
	}
	if strings.HasPrefix(t[k:], "invoke name=") {
		if end := s.guard(k, ctx, func() int { return s.invokeBracketless(k, hi) }); end > k {
			return end
		}
	}
	if end := s.guard(k, ctx, func() int { return s.gemmaBare(k, hi) }); end > k {
		return end
	}
	return s.guard(k, ctx, func() int { return s.pythonicLines(k, hi) })
}

// readAt is what a parser's read is given: where its opener starts, the tag
// when the opener is one, the end of the region, the context.
type readAt struct {
	j      int
	g      tag
	lo, hi int // the region the walk reads
	ctx    scanCtx
	opener *opener
}

// add records a call or problem, unless its family is not one the scan
// looks for.
func (s *scanner) add(it item) {
	if !s.on.has(it.format) {
		return
	}
	if len(s.items) >= maxItems {
		// Far beyond what becomes cards: only counted.
		if it.msg == "" {
			s.moreCalls++
		} else {
			s.moreProblems++
		}
		return
	}
	// Spans stay inside the text, whatever a parser computed.
	it.start = min(max(it.start, 0), len(s.text))
	it.end = min(max(it.end, it.start), len(s.text))
	if it.args != nil {
		// Parsers append keys; a repeated key keeps its last value.
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

// guard runs a parser for an opener at j and, at the top level, drops what
// it found if the prose around it says it is only an example, or if it is
// quoted: right after a quote, inside a string literal of code, or on a
// blockquote line. The checks run only when the parser found something,
// so text full of openers costs no more than the parsers.
func (s *scanner) guard(j int, ctx scanCtx, read func() int) int {
	n := len(s.items)
	guesses, cuts, missing, added := s.guesses, s.cutValues, s.endMissing, s.jsonRepaired
	end := read()
	for i := n; i < len(s.items); i++ {
		// A value's end was guessed (its closer forgotten, or not come
		// yet), or a closer never came: its calls may still change as text
		// arrives, and the end of the message decides (endrule.go). What
		// the end of the message did concerns the last call read.
		it, last := &s.items[i], i == len(s.items)-1
		it.closersAdded = it.closersAdded || last && s.jsonRepaired > added
		// open, as the parser set it: its closing marker never came.
		it.unclosed = it.unclosed || it.open || last && s.endMissing > missing || it.closersAdded
		it.open = it.open || s.guesses > guesses || it.unclosed
		it.cutValue = it.cutValue || last && s.cutValues > cuts
	}
	if end <= j || len(s.items) == n || n > maxItems/2 {
		// Nothing found; or so much already that what follows is only
		// counted (scan.go), so the cues need not be read.
		return end
	}
	quoted := j > 0 && (s.text[j-1] == '"' || s.text[j-1] == '\'') || s.inCodeString(j) || s.quotedLine(j)
	if quoted || ctx == ctxTop && (s.exampleBefore(j) || s.exampleAfter(end)) {
		s.items = s.items[:n]
		s.ignore(j, end, "example")
	}
	return end
}

// inCodeString says j is inside a string literal of code on its line: after
// a quote that opens one (after '=', '(', '[', ',' or ':') and is not closed
// before j. Apostrophes in prose (I'll) open nothing.
func (s *scanner) inCodeString(j int) bool {
	t := s.text
	lo := max(0, j-512)
	if nl := strings.LastIndexByte(t[lo:j], '\n'); nl >= 0 {
		lo += nl + 1
	}
	var open byte
	for k := lo; k < j; k++ {
		c := t[k]
		switch {
		case open != 0:
			if c == '\\' {
				k++
			} else if c == open {
				open = 0
			}
		case c == '"' || c == '\'':
			p := k - 1
			for p >= lo && t[p] == ' ' {
				p--
			}
			if p >= lo && strings.IndexByte("=([,:", t[p]) >= 0 {
				open = c
			}
		}
	}
	return open != 0
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
	case r >= 0x2000 && r <= 0x206F, r >= 0x2190 && r <= 0x27BF, r >= 0x3000 && r <= 0x303F, r >= 0xFF00 && r <= 0xFF65:
		return false
	}
	return true
}

// asciiLower lower-cases ASCII letters only.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// afterCloser skips blanks, a stray fence and stray closing brackets, then
// the closer if it is there; otherwise it returns p.
func (s *scanner) afterCloser(p int, closer string, hi int) int {
	if closer == "" {
		return p
	}
	t := s.text
	q := p
	for q < hi && q-p < 64 {
		c := t[q]
		if isSpace(c) || c == '}' || c == ']' || c == '`' || c == '"' {
			q++
			continue
		}
		break
	}
	if strings.HasPrefix(t[q:hi], closer) {
		return q + len(closer)
	}
	s.closerAtEnd(p, closer, hi)
	return p
}

// swapWord replaces the first from (matched case-insensitively) in raw by to,
// upper-cased when the original was: <|START_ACTION| → <|END_ACTION|.
func swapWord(raw, from, to string) string {
	k := strings.Index(strings.ToLower(raw), from)
	if k < 0 {
		return raw
	}
	if c := raw[k]; c >= 'A' && c <= 'Z' {
		to = strings.ToUpper(to)
	}
	return raw[:k] + to + raw[k+len(from):]
}
