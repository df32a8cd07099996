package paradigm

import (
	"strconv"
	"strings"

	"airlock/backend/tools/ojson"
)

// Pythonic calls: [get_weather(city="Paris"), get_time(tz='UTC')] as Llama
// 3.2/4 write them (Llama 4 between <|python_start|> and <|python_end|>),
// Gemma 3's ```tool_code blocks, Granite's and LFM2's lists
// (<|tool_call_start|>[…]<|tool_call_end|>), OLMo 3's <function_calls>,
// Llama's built-in brave_search.call(query="..."). Arguments are Python
// literals.

const FormatPythonic = "pythonic"

var pythonicParser = &parser{
	families: []Family{{ID: FormatPythonic, Name: "Pythonic", Models: "Llama 3.2/4, Gemma 3, LFM2, OLMo 3, Granite, ToolACE",
		Markers: []string{"[name(", "<|python_start|>", "<|tool_call_start|>", "```tool_code"},
		Source:  "meta-llama/llama-models prompt format docs; vLLM pythonic, llama4_pythonic, lfm2 and olmo3 tool parsers",
		Example: `[read_file(path="notes.md")]`}},
	openers: []opener{{tag: "|python_start|"}, {any: '['}},
	read: func(s *scanner, r readAt) int {
		if r.g.name == "|python_start|" {
			return s.pythonStart(r.j, r.g.end, swapWord(r.g.rawName, "start", "end")+">", r.hi)
		}
		return s.pythonicBracket(r.j, r.hi)
	},
	payload: func(s *scanner, w wrapper, k int) int {
		t := s.text
		hi := len(t)
		if t[k] == '[' {
			lim := hi
			if c := s.findIn(w.closer, k, hi); c >= 0 {
				lim = c
			}
			end := s.pythonicList(k, lim, true)
			if end < 0 {
				return -1
			}
			if n := len(s.items); n > 0 {
				s.items[n-1].end = s.afterCloser(end, w.closer, hi)
			}
			return s.afterCloser(end, w.closer, hi)
		}
		if !isIdentByte(t[k]) {
			return -1
		}
		name, p := s.ident(k, hi)
		if name == "" || s.skipSpace(p, hi) >= hi || t[s.skipSpace(p, hi)] != '(' {
			return -1
		}
		end := s.pythonicCalls(w.j, k, hi, w.closer, true)
		if end < 0 {
			return -1
		}
		return s.afterCloser(end, w.closer, hi)
	},
}

// pythonicBracket reads a list of calls in prose: at the start of a line,
// after ':' or a tag, or after a blank when every call names its
// arguments (pythonicList checks that).
func (s *scanner) pythonicBracket(j, hi int) int {
	if j > 0 && !isSpace(s.text[j-1]) && s.prevSig(j, 0) != ':' && s.prevSig(j, 0) != '>' {
		return -1
	}
	k := s.skipSpace(j+1, hi)
	if k >= hi || !isIdentByte(s.text[k]) {
		return -1
	}
	return s.pythonicList(j, hi, false)
}

type pyCall struct {
	name       string
	args       ojson.Object
	positional int
	start, end int
}

// call parses name(args). print(call) is unwrapped.
func (p *pyParser) call() (pyCall, bool) {
	c := pyCall{start: p.i}
	name := p.name()
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		return c, false
	}
	p.ws()
	if p.peek() != '(' {
		return c, false
	}
	p.i++
	p.ws()
	if name == "print" && isIdentByte(p.peek()) {
		save := p.i
		inner, ok := p.call()
		if ok {
			p.ws()
			if p.peek() == ')' {
				p.i++
				inner.start, inner.end = c.start, p.i
				return inner, true
			}
		}
		p.i = save
	}
	c.name = strings.TrimSuffix(name, ".call")
	c.args = ojson.Object{}
	for {
		p.ws()
		if p.peek() == ')' {
			p.i++
			c.end = p.i
			return c, true
		}
		// keyword=value?
		k := p.i
		kw := p.name()
		p.ws()
		if kw != "" && p.peek() == '=' && !(p.i+1 < p.hi && p.t[p.i+1] == '=') {
			p.i++
			p.ws()
			v, ok := p.value()
			if !ok {
				return c, false
			}
			c.args = append(c.args, ojson.Member{Key: kw, Value: v})
		} else {
			p.i = k
			if _, ok := p.value(); !ok {
				return c, false
			}
			c.positional++
		}
		p.ws()
		switch p.peek() {
		case ',':
			p.i++
		case ')':
		default:
			return c, false
		}
	}
}

// addPy records parsed calls; positional arguments can't be named without
// knowing the tool, so they make a problem.
func (s *scanner) addPy(calls []pyCall, j, end int) {
	for i, c := range calls {
		it := item{name: c.name, args: c.args, format: FormatPythonic, start: c.start, end: c.end}
		if i == 0 {
			it.start = j
		}
		if i == len(calls)-1 {
			it.end = end
		}
		if c.positional > 0 {
			it.msg = "The call of " + strconv.Quote(c.name) + " passes arguments by position; name each one (" + c.name + "(path=\"…\")), so Airlock knows which is which."
		}
		s.add(it)
	}
}

// pythonicList reads [call, call, ...] at j. Outside an explicit context
// (strict false), the calls must use keyword arguments only, or it is
// taken as prose.
func (s *scanner) pythonicList(j, hi int, strict bool) int {
	lim := hi
	if !strict {
		lim = min(hi, j+1<<20)
	}
	end := s.pythonicListEnd(j, lim)
	p := &pyParser{t: s.text, i: j + 1, hi: lim, budget: &s.budget}
	var calls []pyCall
	var broken [][2]int // calls that could not be read, when the list's end is known
	for {
		p.ws()
		c, ok := p.call()
		if !ok || (c.positional > 0 && !strict) {
			// Skip to the next call of the list, if its end is known.
			next := s.nextListCall(c.start, end)
			if end < 0 || next < 0 {
				return s.brokenList(j, end, strict, calls)
			}
			broken = append(broken, [2]int{c.start, next})
			p.i = next
			continue
		} else {
			calls = append(calls, c)
		}
		p.ws()
		if p.peek() == ',' {
			p.i++
			continue
		}
		if p.peek() == ']' {
			p.i++
			break
		}
		return s.brokenList(j, end, strict, calls)
	}
	listEnd := p.i
	if len(calls) == 0 {
		return s.brokenList(j, end, strict, nil)
	}
	if !strict && !s.atLineStart(j, 0) && s.prevSig(j, 0) != ':' && s.prevSig(j, 0) != '>' {
		// In the middle of prose, every call must name its arguments.
		for _, c := range calls {
			if len(c.args) == 0 {
				return -1
			}
		}
	}
	s.addPy(calls, j, listEnd)
	for _, b := range broken {
		s.problem("This call could not be read, so it was not run: "+strconv.Quote(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s.text[b[0]:b[1]]), ","))), FormatPythonic, b[0], b[1])
	}
	return listEnd
}

// pythonicListEnd finds the ']' that ends a list of calls opened at j: the
// last ")]" before the end of the line (within 64 KB). -1 when there is
// none.
func (s *scanner) pythonicListEnd(j, hi int) int {
	t := s.text
	eol := s.findIn("\n", j, hi)
	if eol < 0 || eol-j > 1<<16 {
		eol = min(hi, j+1<<16)
	}
	s.budget -= eol - j
	if s.budget <= 0 {
		return -1
	}
	if k := strings.LastIndex(t[j:eol], ")]"); k >= 0 {
		return j + k + 2
	}
	return -1
}

// nextListCall finds where the call after the one at from starts: after a
// "), " followed by a name and "(", before end.
func (s *scanner) nextListCall(from, end int) int {
	t := s.text
	for k := from; k < end; k++ {
		if t[k] != ')' {
			continue
		}
		q := k + 1
		for q < end && (t[q] == ' ' || t[q] == '\t') {
			q++
		}
		if q >= end || t[q] != ',' {
			continue
		}
		q++
		for q < end && (t[q] == ' ' || t[q] == '\t') {
			q++
		}
		r := q
		for r < end && (isIdentByte(t[r]) && t[r] < 0x80 || t[r] == '.') {
			r++
		}
		if r > q && r < end && t[r] == '(' {
			return q
		}
	}
	return -1
}

// brokenList handles a list of calls that could not be read: in an explicit
// context, or when it was plainly meant as calls (name=value inside),
// it is a problem card; otherwise it is prose. The calls read before the
// break are kept.
func (s *scanner) brokenList(j, end int, strict bool, calls []pyCall) int {
	if end < 0 {
		return -1
	}
	seg := s.text[j:end]
	if !strict && !(s.atLineStart(j, 0) && strings.Contains(seg, "=")) {
		return -1
	}
	if len(calls) > 0 {
		s.addPy(calls, j, calls[len(calls)-1].end)
	}
	s.problem("This list of calls could not be read, so it was not run. Check its quotes and brackets.", FormatPythonic, j, end)
	return end
}

// pythonicCalls reads one or more bare calls at k (separated by blanks,
// newlines, ';' or ','), up to closer. It returns the end, or -1.
func (s *scanner) pythonicCalls(j, k, hi int, closer string, strict bool) int {
	lim := hi
	if closer != "" {
		if c := s.findIn(closer, k, hi); c >= 0 {
			lim = c
		}
	}
	p := &pyParser{t: s.text, i: k, hi: lim, budget: &s.budget}
	var calls []pyCall
	var broken [][2]int
	for {
		p.ws()
		if p.i >= lim {
			break
		}
		c, ok := p.call()
		if !ok {
			// One call per line: a line that can't be read is a problem
			// when a later line can.
			nl := s.findIn("\n", c.start, lim)
			if nl < 0 {
				if len(calls) == 0 {
					return -1
				}
				break
			}
			broken = append(broken, [2]int{c.start, nl})
			p.i = nl
			continue
		}
		if c.positional > 0 && !strict {
			return -1
		}
		calls = append(calls, c)
		p.ws()
		if p.peek() == ';' || p.peek() == ',' {
			p.i++
		}
	}
	if len(calls) == 0 {
		return -1
	}
	s.addPy(calls, j, p.i)
	for _, b := range broken {
		s.problem("This call could not be read, so it was not run: "+strconv.Quote(strings.TrimSpace(s.text[b[0]:b[1]])), FormatPythonic, b[0], b[1])
	}
	return p.i
}

// pythonicBlock reads a ```tool_code block: a list, or calls one per line.
func (s *scanner) pythonicBlock(k, hi int, strict bool) bool {
	if k >= hi || !isIdentByte(s.text[k]) && s.text[k] != '[' {
		return false
	}
	if s.text[k] == '[' {
		return s.pythonicList(k, hi, true) > 0
	}
	return s.pythonicCalls(k, k, hi, "", strict) > 0
}

// pythonStart reads Llama 4's <|python_start|>[calls]<|python_end|>.
func (s *scanner) pythonStart(j, k int, closer string, hi int) int {
	p := s.skipSpace(k, hi)
	lim := hi
	if c := s.findIn(closer, p, hi); c >= 0 {
		lim = c
	}
	var end int
	if p < lim && s.text[p] == '[' {
		end = s.pythonicList(p, lim, true)
	} else {
		end = s.pythonicCalls(p, p, lim, "", true)
	}
	if end < 0 {
		return -1
	}
	if n := len(s.items); n > 0 {
		s.items[n-1].end = s.afterCloser(end, closer, hi)
	}
	return s.afterCloser(end, closer, hi)
}

// pythonicLines reads lines of bare calls from k: name(k=v, …) alone on its
// line, several separated by ';' or ',' or on the lines that follow
// (Granite, and models that drop the brackets). Every call names its
// arguments; a call without arguments counts when its name is a tool's or
// when the message holds nothing but calls.
func (s *scanner) pythonicLines(k, hi int) int {
	t := s.text
	var calls []pyCall
	end := -1
	for line := k; line < hi; {
		eol := s.findIn("\n", line, hi)
		if eol < 0 {
			eol = hi
		}
		p := &pyParser{t: t, i: line, hi: eol, budget: &s.budget}
		var row []pyCall
		for {
			c, ok := p.call()
			if !ok || c.positional > 0 {
				row = nil
				break
			}
			row = append(row, c)
			for p.i < p.hi && (t[p.i] == ' ' || t[p.i] == '\t') {
				p.i++
			}
			if p.peek() == ';' || p.peek() == ',' {
				p.i++
				for p.i < p.hi && (t[p.i] == ' ' || t[p.i] == '\t') {
					p.i++
				}
			}
			if p.i >= p.hi || t[p.i] == '\n' || t[p.i] == '\r' {
				break
			}
		}
		if len(row) == 0 {
			break
		}
		calls = append(calls, row...)
		end = p.i
		line = s.skipSpace(p.i, hi)
		if line < hi && (!isIdentByte(t[line]) || t[line] >= 0x80) {
			break
		}
	}
	if len(calls) == 0 {
		return -1
	}
	only := strings.TrimSpace(t[:k]) == "" && strings.TrimSpace(t[end:]) == ""
	for _, c := range calls {
		if len(c.args) == 0 && !only && (s.known == nil || !s.known(c.name)) {
			return -1
		}
	}
	s.addPy(calls, k, end)
	return end
}
