package paradigm

import (
	"strconv"
	"strings"

	"airlock/backend/tools/ojson"
)

// Recognisers. Each takes the position of an opener and returns the position
// after what it consumed, or -1 when the text there is not its business.
// Facts about real outputs come from the public parsers of vLLM, SGLang,
// llama.cpp and Ollama (read for formats, not code).

// angle dispatches on '<'.
func (s *scanner) angle(j, hi int, ctx scanCtx) int {
	t := s.text
	if strings.HasPrefix(t[j:], "<<<[") {
		if s.set.has(fVCP) && s.hasPrefix(j, vcpOpen) {
			return s.guard(j, ctx, func() int { return s.vcpBlock(j, hi) })
		}
		return -1
	}
	g, ok := s.parseTag(j, hi)
	if !ok {
		return -1
	}
	if g.closing {
		switch g.name {
		case "think", "thinking", "reasoning", "seed:think":
			return s.orphanClose(j, g.end, ctx)
		}
		return g.end
	}
	switch g.name {
	case "think", "thinking", "reasoning", "seed:think":
		return s.reasoning(j, g.end, g.closer(), hi)
	case "|start_thinking|":
		return s.reasoning(j, g.end, swapWord(g.rawName, "start", "end")+">", hi)
	case "|end_thinking|":
		return s.orphanClose(j, g.end, ctx)

	case "tool_code":
		if !s.set.has(fXML | fPythonic) {
			return -1
		}
		return s.guard(j, ctx, func() int { return s.wrapped(j, g, g.closer(), FormatXML, hi) })
	case "tool_call", "function_call", "functioncall", "toolcall", "tool_calls", "tool_use",
		"seed:tool_call", "minimax:tool_call", "longcat_tool_call", "function_calls":
		return s.guard(j, ctx, func() int { return s.wrapped(j, g, g.closer(), FormatHermes, hi) })
	case "|tool_call":
		if !s.set.has(fGemma) {
			return -1
		}
		return s.guard(j, ctx, func() int { return s.wrapped(j, g, "<tool_call|>", FormatGemma, hi) })
	case "start_function_call":
		if !s.set.has(fGemma) {
			return -1
		}
		return s.guard(j, ctx, func() int { return s.wrapped(j, g, "<end_function_call>", FormatGemma, hi) })
	case "function":
		if !s.set.has(fQwenCoder | fLlama) {
			return -1
		}
		return s.guard(j, ctx, func() int { return s.functionTag(j, g, "", hi) })
	case "invoke":
		if !s.set.has(fInvoke) {
			return -1
		}
		return s.guard(j, ctx, func() int { return s.invoke(j, g, "", hi) })
	case "dsml:function_calls", "dsml:tool_calls":
		if !s.set.has(fDeepSeek) {
			return -1
		}
		return s.guard(j, ctx, func() int { return s.invokeList(j, g.end, g.closer(), FormatDeepSeek, hi) })
	case "dsml:invoke":
		if !s.set.has(fDeepSeek) {
			return -1
		}
		return s.guard(j, ctx, func() int { return s.invoke(j, g, FormatDeepSeek, hi) })
	case "|tool_calls_begin|", "|tool_call_begin|", "|tool_calls_section_begin|":
		if !s.set.has(fDeepSeek | fKimi) {
			return -1
		}
		return s.guard(j, ctx, func() int { return s.tokenCalls(j, g, hi) })
	case "|python_tag|":
		return s.guard(j, ctx, func() int { return s.pythonTag(j, g, hi) })
	case "|python_start|":
		if !s.set.has(fPythonic) {
			return -1
		}
		return s.guard(j, ctx, func() int {
			closer := swapWord(g.rawName, "start", "end") + ">"
			return s.pythonStart(j, g.end, closer, hi)
		})
	case "|tool_call|":
		return s.guard(j, ctx, func() int { return s.jsonAfter(j, g.end, "", FormatGranite, hi) })
	case "|action_start|":
		return s.guard(j, ctx, func() int { return s.internLM(j, g, hi) })
	case "|start_action|":
		return s.guard(j, ctx, func() int {
			return s.jsonAfter(j, g.end, swapWord(g.rawName, "start", "end")+">", FormatCommandR, hi)
		})
	case "|channel|", "|start|":
		return s.harmony(j, g, hi, ctx)
	}
	return -1
}

// bracket dispatches on '['.
func (s *scanner) bracket(j, hi int, ctx scanCtx) int {
	t := s.text
	switch {
	case strings.HasPrefix(t[j:], "[TOOL_CALLS]"):
		if !s.set.has(fMistral) {
			return -1
		}
		return s.guard(j, ctx, func() int { return s.mistral(j, hi) })
	case strings.HasPrefix(t[j:], "[THINK]"):
		return s.reasoning(j, j+7, "[/THINK]", hi)
	case j >= 9 && t[j-9:j] == "functools":
		if !s.set.has(fMisc) {
			return -1
		}
		return s.guard(j-9, ctx, func() int { return s.jsonAfter(j-9, j, "", FormatPhi4, hi) })
	}
	switch s.prevSig(j, 0) {
	case 0, ':', '>':
	default:
		return -1
	}
	k := s.skipSpace(j+1, hi)
	if k >= hi {
		return -1
	}
	if t[k] == '{' {
		if !s.set.has(fJSON|fLlama) || !looksLikeCall(t[j:min(hi, j+2048)]) {
			return -1
		}
		return s.guard(j, ctx, func() int { return s.bareJSON(j, hi) })
	}
	if isIdentByte(t[k]) && s.set.has(fPythonic) {
		return s.guard(j, ctx, func() int { return s.pythonicList(j, hi, false) })
	}
	return -1
}

// brace dispatches on '{': a bare JSON call at the start of a line (or
// after ';', ':' or a tag), as Llama 3.x writes them.
func (s *scanner) brace(j, hi int, ctx scanCtx) int {
	switch s.prevSig(j, 0) {
	case 0, ';', ':', '>':
	default:
		return -1
	}
	if !s.set.has(fJSON | fLlama) {
		return -1
	}
	t := s.text
	k := s.skipSpace(j+1, hi)
	if k >= hi || !(t[k] == '"' || t[k] == '\'' || t[k] >= 'a' && t[k] <= 'z' || t[k] >= 'A' && t[k] <= 'Z') {
		return -1
	}
	if !looksLikeCall(t[j:min(hi, j+2048)]) && !strings.Contains(t[j:min(hi, j+2048)], `"function"`) {
		return -1
	}
	return s.guard(j, ctx, func() int { return s.bareJSON(j, hi) })
}

// bareJSON reads a call object or array found in prose. Only call-shaped
// JSON counts; other JSON is skipped whole.
func (s *scanner) bareJSON(j, hi int) int {
	r := s.readJSON(j, hi, "", false)
	if !r.ok() {
		if looksLikeCall(s.text[j:max(j, r.end)]) && strings.Contains(s.text[j:min(hi, j+64)], `"`) {
			s.problem(r.msg, FormatLlama, j, max(r.end, j+1))
			return max(r.end, j+1)
		}
		return -1
	}
	s.jsonCalls(r, "", j, r.end, false, false)
	return r.end
}

// jsonAfter reads explicit JSON calls after a marker (<|tool_call|>,
// functools, <|START_ACTION|>), up to an optional closer.
func (s *scanner) jsonAfter(j, k int, closer, format string, hi int) int {
	if !s.set.has(fmtFor(format)) {
		return -1
	}
	t := s.text
	p := s.skipSpace(k, hi)
	if p >= hi {
		s.problem(msgCutOff, format, j, hi)
		return hi
	}
	if t[p] != '{' && t[p] != '[' {
		return -1
	}
	r := s.readJSON(p, hi, closer, true)
	end := s.afterCloser(max(r.end, p), closer, hi)
	if !r.ok() {
		s.problem(r.msg, format, j, end)
		return end
	}
	s.jsonCalls(r, format, j, end, true, false)
	return end
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
	return p
}

// --- reasoning -------------------------------------------------------------

func (s *scanner) reasoning(j, from int, closer string, hi int) int {
	s.sawThink = true
	end := hi
	if c := s.findIn(closer, from, hi); c >= 0 {
		end = c + len(closer)
	}
	s.ignore(j, end, "reasoning")
	return end
}

// orphanClose handles a reasoning closer with no opener: templates that put
// <think> in the prompt make the model start straight with reasoning, so
// everything before it was reasoning. Only the first one counts.
func (s *scanner) orphanClose(j, end int, ctx scanCtx) int {
	if ctx != ctxTop || s.sawThink {
		return end
	}
	s.sawThink = true
	s.items = s.items[:0]
	s.ignored = s.ignored[:0]
	s.ignore(0, end, "reasoning")
	return end
}

// --- <tool_call> and friends ----------------------------------------------

// wrapped reads a tag that wraps a call: <tool_call>, <tool_code>,
// <function_call>, <minimax:tool_call>, Gemma's <|tool_call>, ... The payload
// decides the format: JSON (Hermes), <function=...> (Qwen3-Coder), <invoke>
// (MiniMax-M2, Claude-style), name + <arg_key> (GLM), call:name{...} (Gemma),
// name(...) (pythonic), name{...}.
func (s *scanner) wrapped(j int, g tag, closer, label string, hi int) int {
	t := s.text
	k := s.skipSpace(g.end, hi)
	if k < hi && strings.HasPrefix(t[k:], "```") {
		// A fence inside the tag: skip its opening line.
		if e := s.findIn("\n", k, hi); e >= 0 {
			k = s.skipSpace(e+1, hi)
		}
	}
	if k >= hi {
		if s.prevSig(j, 0) == 0 || label != FormatHermes {
			s.problem(msgCutOff, label, j, hi)
			return hi
		}
		return -1
	}
	jsonFmt := label
	switch {
	case t[k] == '{' || t[k] == '[':
		need := fHermes
		if g.name == "tool_code" {
			need = fXML
		}
		if !s.set.has(need) {
			return -1
		}
		r := s.readJSON(k, hi, closer, true)
		end := s.afterCloser(max(r.end, k), closer, hi)
		if !r.ok() {
			s.problem(r.msg, jsonFmt, j, end)
			return end
		}
		s.jsonCalls(r, jsonFmt, j, end, true, false)
		return end
	case strings.HasPrefix(t[k:], "<function"):
		fg, ok := s.parseTag(k, hi)
		if !ok || fg.name != "function" || !s.set.has(fQwenCoder|fLlama) {
			break
		}
		end := s.functionTag(j, fg, closer, hi)
		if end < 0 {
			break
		}
		return s.afterCloser(end, closer, hi)
	case strings.HasPrefix(t[k:], "<invoke") || strings.HasPrefix(t[k:], "<"+fullPipe+"DSML"):
		if !s.set.has(fInvoke | fDeepSeek) {
			break
		}
		return s.invokeList(j, k, closer, FormatInvoke, hi)
	case strings.HasPrefix(t[k:], "call:"):
		if !s.set.has(fGemma) {
			break
		}
		return s.gemma(j, k+5, closer, hi)
	case isIdentByte(t[k]):
		name, p := s.ident(k, hi)
		if name == "" {
			break
		}
		q := s.skipSpace(p, hi)
		switch {
		case q < hi && (strings.HasPrefix(t[q:], "<arg_key>") || strings.HasPrefix(t[q:], closer)):
			if !s.set.has(fGLM) || !validName(name, false) {
				break
			}
			return s.glm(j, name, q, closer, hi)
		case q < hi && t[q] == '{' && s.set.has(fHermes):
			r := s.readJSON(q, hi, closer, false)
			end := s.afterCloser(max(r.end, q), closer, hi)
			if !r.ok() {
				s.problem(r.msg, FormatHermes, j, end)
				return end
			}
			obj, _ := r.vals[0].(ojson.Object)
			it := item{name: name, args: obj, format: FormatHermes, start: j, end: end}
			if obj == nil {
				it.msg = "The arguments of " + strconv.Quote(name) + " must be a JSON object, so the call was not run."
			}
			s.add(it)
			return end
		case q < hi && t[q] == '(' && s.set.has(fPythonic):
			end := s.pythonicCalls(j, k, hi, closer, true)
			if end > 0 {
				return s.afterCloser(end, closer, hi)
			}
		}
	}
	// Nothing recognisable inside.
	c := s.findIn(closer, k, hi)
	if c >= 0 {
		end := c + len(closer)
		open := g.rawName
		if next := s.findIn(open, k, hi); next < 0 || next > c {
			s.problem("This "+strings.TrimPrefix(g.rawName, "<")+" block holds no tool call Airlock can read, so nothing was run. Write the call in the format the system prompt describes.", label, j, end)
			return end
		}
	}
	if s.prevSig(j, 0) != 0 {
		return -1 // a tag mentioned in prose
	}
	end := hi
	if next := s.findIn(g.rawName, k, hi); next >= 0 {
		end = next
	}
	s.problem("This "+strings.TrimPrefix(g.rawName, "<")+" block holds no tool call Airlock can read, so nothing was run. Write the call in the format the system prompt describes.", label, j, end)
	return end
}

// --- <function=name> -------------------------------------------------------

// functionTag reads <function=name> followed by either a JSON object
// (Llama 3.1's custom format, </function> closing it) or Qwen3-Coder's
// <parameter=p>value</parameter> list. outer is the wrapper's closer, if any.
func (s *scanner) functionTag(j int, g tag, outer string, hi int) int {
	t := s.text
	name, ok := eqName(g.attrs)
	if !ok || !validName(name, false) {
		return -1
	}
	p := s.skipSpace(g.end, hi)
	if p < hi && t[p] == '{' {
		if !s.set.has(fLlama) {
			return -1
		}
		r := s.readJSON(p, hi, "</function>", false)
		end := s.afterCloser(max(r.end, p), "</function>", hi)
		if !r.ok() {
			s.problem(r.msg, FormatLlama, j, end)
			return end
		}
		obj, _ := r.vals[0].(ojson.Object)
		it := item{name: name, args: obj, format: FormatLlama, start: j, end: end}
		if obj == nil {
			it.msg = "The arguments of " + strconv.Quote(name) + " must be a JSON object, so the call was not run."
		}
		s.add(it)
		return end
	}
	if !s.set.has(fQwenCoder) {
		return -1
	}
	args := ojson.Object{}
	cut, closed := false, false
	for {
		p = s.skipSpace(p, hi)
		if p >= hi {
			break
		}
		if strings.HasPrefix(t[p:], "<parameter") {
			pg, ok := s.parseTag(p, hi)
			if !ok || pg.name != "parameter" {
				break
			}
			pname, _ := eqName(pg.attrs)
			vs := pg.end
			end, next, complete := s.valueEnd(vs, hi, "</parameter>", outer, "<parameter", "</function>", "<function=")
			if !complete {
				cut = true
			}
			args = append(args, ojson.Member{Key: pname, Value: trimOneNewline(t[vs:end])})
			p = next
			continue
		}
		if strings.HasPrefix(t[p:], "</function>") {
			p += len("</function>")
			closed = true
			break
		}
		break
	}
	if outer == "" && !closed && len(args) == 0 && p < hi {
		return -1 // "<function=name>" mentioned in prose
	}
	it := item{name: name, args: args, format: FormatQwenCoder, start: j, end: p}
	if cut {
		it.msg = msgCutOff
	}
	s.add(it)
	return p
}

// valueEnd finds where a value that starts at vs ends: at its closer, unless
// a strong stop (a sibling opener, the parent's closer) comes first, which
// means the model forgot the closer. weak (the wrapper's closer) ends the
// value only when nothing else does, so a value may quote "</tool_call>".
// complete is false when nothing ended it before the end of the text.
func (s *scanner) valueEnd(vs, hi int, closer string, weak string, strong ...string) (end, next int, complete bool) {
	c := s.findIn(closer, vs, hi)
	first := -1
	for _, st := range strong {
		if st == "" {
			continue
		}
		if at := s.findIn(st, vs, hi); at >= 0 && (first < 0 || at < first) {
			first = at
		}
	}
	if c >= 0 && (first < 0 || c < first) {
		return c, c + len(closer), true
	}
	if first >= 0 {
		return first, first, true
	}
	if weak != "" {
		if w := s.findIn(weak, vs, hi); w >= 0 {
			return w, w, true
		}
	}
	return hi, hi, false
}

// --- <invoke name="x"> -------------------------------------------------------

// invokeList reads invokes until closer (MiniMax-M2's <minimax:tool_call>,
// Claude-style <function_calls>, DeepSeek's DSML <｜DSML｜function_calls>).
func (s *scanner) invokeList(j, k int, closer, label string, hi int) int {
	p := k
	n := len(s.items)
	for {
		p = s.skipSpace(p, hi)
		if p >= hi {
			break
		}
		if closer != "" && strings.HasPrefix(s.text[p:], closer) {
			p += len(closer)
			break
		}
		g, ok := s.parseTag(p, hi)
		if !ok || g.closing || (g.name != "invoke" && g.name != "dsml:invoke") {
			break
		}
		f := label
		if g.name == "dsml:invoke" {
			f = FormatDeepSeek
		}
		end := s.invokeIn(p, g, f, hi, false)
		if end <= p {
			break
		}
		p = end
	}
	if len(s.items) == n {
		return -1
	}
	// The first call's span starts at the wrapper.
	s.items[n].start = j
	if last := len(s.items) - 1; s.items[last].end < p {
		s.items[last].end = p
	}
	return p
}

// invoke reads one <invoke name="x">…</invoke>. Unwrapped (bare), it must
// be closed or hold a parameter, or it is a tag mentioned in prose.
func (s *scanner) invoke(j int, g tag, label string, hi int) int {
	return s.invokeIn(j, g, label, hi, true)
}

func (s *scanner) invokeIn(j int, g tag, label string, hi int, bare bool) int {
	t := s.text
	if label == "" {
		label = FormatInvoke
	}
	if !s.set.has(fmtFor(label)) {
		return -1
	}
	name, ok := attr(g.attrs, "name")
	name = strings.TrimSpace(name)
	if !ok || !validName(name, false) {
		return -1
	}
	invokeCloser := g.closer()
	paramOpen := strings.TrimSuffix(g.rawName, "invoke") + "parameter"
	paramClose := "</" + strings.TrimPrefix(paramOpen, "<") + ">"
	args := ojson.Object{}
	cut, closed := false, false
	p := g.end
	for {
		p = s.skipSpace(p, hi)
		if p >= hi {
			break
		}
		if strings.HasPrefix(t[p:], invokeCloser) {
			p += len(invokeCloser)
			closed = true
			break
		}
		if !strings.HasPrefix(t[p:], paramOpen) {
			break
		}
		pg, ok := s.parseTag(p, hi)
		if !ok {
			break
		}
		pname, _ := attr(pg.attrs, "name")
		vs := pg.end
		end, next, complete := s.valueEnd(vs, hi, paramClose, "", paramOpen, invokeCloser)
		if !complete {
			cut = true
		}
		val := trimOneNewline(t[vs:end])
		var v any = val
		if isStr, has := attr(pg.attrs, "string"); has && isStr == "false" {
			if dv, err := decodeLenient(strings.TrimSpace(val)); err == nil {
				v = dv
			}
		}
		args = append(args, ojson.Member{Key: pname, Value: v})
		p = next
	}
	if bare && !closed && len(args) == 0 && p < hi {
		return -1
	}
	it := item{name: name, args: args, format: label, start: j, end: p}
	if cut {
		it.msg = msgCutOff
	}
	s.add(it)
	return p
}

// --- GLM --------------------------------------------------------------------

// glm reads GLM-4.5+'s name<arg_key>k</arg_key><arg_value>v</arg_value>...
func (s *scanner) glm(j int, name string, p int, closer string, hi int) int {
	t := s.text
	args := ojson.Object{}
	cut := false
	for {
		p = s.skipSpace(p, hi)
		if p >= hi {
			break
		}
		if strings.HasPrefix(t[p:], closer) {
			p += len(closer)
			break
		}
		if !strings.HasPrefix(t[p:], "<arg_key>") {
			break
		}
		ks := p + len("<arg_key>")
		ke := s.findIn("</arg_key>", ks, hi)
		if ke < 0 || ke-ks > 256 {
			cut = ke < 0
			p = hi
			break
		}
		key := strings.TrimSpace(t[ks:ke])
		p = s.skipSpace(ke+len("</arg_key>"), hi)
		if !strings.HasPrefix(t[p:], "<arg_value>") {
			args = append(args, ojson.Member{Key: key, Value: ""})
			continue
		}
		vs := p + len("<arg_value>")
		end, next, complete := s.valueEnd(vs, hi, "</arg_value>", closer, "<arg_key>")
		if !complete {
			cut = true
		}
		args = append(args, ojson.Member{Key: key, Value: t[vs:end]})
		p = next
	}
	it := item{name: name, args: args, format: FormatGLM, start: j, end: p}
	if cut {
		it.msg = msgCutOff
	}
	s.add(it)
	return p
}

// --- Mistral ------------------------------------------------------------------

// mistral reads [TOOL_CALLS][{...}] (tokenizer < v11) and
// [TOOL_CALLS]name[CALL_ID]id[ARGS]{...} (v11+, [ARGS] sometimes dropped).
func (s *scanner) mistral(j, hi int) int {
	t := s.text
	p := s.skipSpace(j+len("[TOOL_CALLS]"), hi)
	if p >= hi {
		s.problem(msgCutOff, FormatMistral, j, hi)
		return hi
	}
	if t[p] == '[' || t[p] == '{' {
		r := s.readJSON(p, hi, "", false)
		if !r.ok() {
			s.problem(r.msg, FormatMistral, j, max(r.end, p+1))
			return max(r.end, p+1)
		}
		s.jsonCalls(r, FormatMistral, j, r.end, true, false)
		return r.end
	}
	end := p
	start := j
	for {
		name, q := s.ident(p, hi)
		if name == "" {
			s.problem("The tool call after [TOOL_CALLS] has no tool name, so it was not run.", FormatMistral, start, max(q, p+1))
			return max(q, p+1)
		}
		id := ""
		if strings.HasPrefix(t[q:], "[CALL_ID]") {
			id, q = s.ident(q+len("[CALL_ID]"), hi)
		}
		if strings.HasPrefix(t[q:], "[ARGS]") {
			q += len("[ARGS]")
		}
		q = s.skipSpace(q, hi)
		if q >= hi || t[q] != '{' {
			msg := "The call of " + strconv.Quote(name) + " has no arguments object, so it was not run."
			if q >= hi {
				msg = msgCutOff
			}
			s.problem(msg, FormatMistral, start, q)
			return q
		}
		r := s.readJSON(q, hi, "", false)
		end = max(r.end, q+1)
		if !r.ok() {
			s.problem(r.msg, FormatMistral, start, end)
		} else {
			obj, _ := r.vals[0].(ojson.Object)
			it := item{id: id, name: name, args: obj, format: FormatMistral, start: start, end: end}
			if obj == nil {
				it.msg = "The arguments of " + strconv.Quote(name) + " must be a JSON object, so the call was not run."
			}
			s.add(it)
		}
		p = s.skipSpace(end, hi)
		if !strings.HasPrefix(t[p:], "[TOOL_CALLS]") {
			return end
		}
		start = p
		p += len("[TOOL_CALLS]")
	}
}

// --- DeepSeek and Kimi tokens --------------------------------------------------

// tokenCalls reads DeepSeek V3/R1 (function<｜tool▁sep｜>name + fenced JSON),
// DeepSeek V3.1 (name<｜tool▁sep｜>JSON) and Kimi K2
// (functions.name:0<|tool_call_argument_begin|>JSON) call sections.
func (s *scanner) tokenCalls(j int, g tag, hi int) int {
	p := g.end
	if g.name == "|tool_call_begin|" {
		p = j // a call without its section opener
	}
	end := p
	for {
		p = s.skipSpace(p, hi)
		st, ok := s.specialAt(p, hi)
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
		if p >= hi {
			s.problem(msgCutOff, FormatDeepSeek, j, hi)
			return hi
		}
		return g.end
	}
	return end
}

func (s *scanner) tokenCall(begin tag, hi int) int {
	t := s.text
	j := begin.start
	endTok := swapWord(begin.rawName, "begin", "end") + ">"
	sep, ok := s.nextSpecial(begin.end, hi)
	if !ok {
		s.problem(msgCutOff, FormatDeepSeek, j, hi)
		return hi
	}
	head := strings.TrimSpace(t[begin.end:sep.start])
	var name, id, format string
	r := sep.end
	switch sep.name {
	case "|tool_sep|":
		format = FormatDeepSeek
		if !s.set.has(fDeepSeek) {
			return -1
		}
		if head == "function" || head == "" {
			// V3 / R1: the name is on the line after the separator.
			q := r
			for q < hi && q-r < 256 && t[q] != '\n' && t[q] != '`' && t[q] != '{' && t[q] != '<' {
				q++
			}
			name = strings.TrimSpace(t[r:q])
			r = q
		} else {
			name = head
		}
	case "|tool_call_argument_begin|":
		format = FormatKimi
		if !s.set.has(fKimi) {
			return -1
		}
		id = head
		name = head
		if c := strings.LastIndexByte(name, ':'); c > 0 {
			if _, err := strconv.Atoi(name[c+1:]); err == nil {
				name = name[:c]
			}
		}
		name = strings.TrimPrefix(name, "functions.")
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
	}
	if name == "" && msg == "" {
		msg = "This tool call has no tool name, so it was not run."
	}
	s.add(item{id: id, name: name, args: args, msg: msg, format: format, start: j, end: end})
	return end
}

// --- Llama special tokens -------------------------------------------------------

// pythonTag reads what follows Llama 3.x's <|python_tag|>: JSON calls
// ({"name":...,"parameters":...}; several separated by ';') or a built-in
// tool call (brave_search.call(query="...")).
func (s *scanner) pythonTag(j int, g tag, hi int) int {
	t := s.text
	p := s.skipSpace(g.end, hi)
	if p >= hi {
		return g.end
	}
	if t[p] == '{' || t[p] == '[' {
		if !s.set.has(fLlama) {
			return -1
		}
		r := s.readJSON(p, hi, "", true)
		if !r.ok() {
			s.problem(r.msg, FormatLlama, j, max(r.end, p+1))
			return max(r.end, p+1)
		}
		s.jsonCalls(r, FormatLlama, j, r.end, true, false)
		return r.end
	}
	if isIdentByte(t[p]) && s.set.has(fPythonic) {
		if end := s.pythonicCalls(j, p, hi, "", true); end > 0 {
			return end
		}
	}
	return g.end
}

// internLM reads <|action_start|><|plugin|>{...}<|action_end|>.
func (s *scanner) internLM(j int, g tag, hi int) int {
	p := s.skipSpace(g.end, hi)
	pl, ok := s.specialAt(p, hi)
	if !ok || pl.name != "|plugin|" {
		return -1
	}
	closer := swapWord(g.rawName, "start", "end") + ">"
	return s.jsonAfter(j, pl.end, closer, FormatInternLM, hi)
}

// harmony reads gpt-oss's channels: analysis is reasoning; a message with
// a recipient (to=functions.name) is a call.
func (s *scanner) harmony(j int, g tag, hi int, ctx scanCtx) int {
	t := s.text
	msg := s.findIn("<|message|>", g.end, min(hi, g.end+400))
	if msg < 0 {
		return -1
	}
	header := t[g.end:msg]
	channel := header
	if g.name == "|start|" {
		if c := strings.Index(header, "<|channel|>"); c >= 0 {
			channel = header[c+len("<|channel|>"):]
		} else {
			channel = ""
		}
	}
	channel = strings.TrimSpace(channel)
	if sp := strings.IndexAny(channel, " <"); sp >= 0 {
		channel = channel[:sp]
	}
	recipient := ""
	if k := strings.Index(header, "to="); k >= 0 {
		rest := header[k+3:]
		e := strings.IndexAny(rest, " <\t\n")
		if e < 0 {
			e = len(rest)
		}
		recipient = rest[:e]
	}
	body := msg + len("<|message|>")
	if recipient == "" {
		if channel == "analysis" {
			end := hi
			for _, stop := range []string{"<|end|>", "<|start|>", "<|channel|>"} {
				if at := s.findIn(stop, body, hi); at >= 0 && at < end {
					end = at
					if stop == "<|end|>" {
						end = at + len(stop)
					}
				}
			}
			s.sawThink = true
			s.ignore(j, end, "reasoning")
			return end
		}
		return body
	}
	if !s.set.has(fHarmony) {
		return -1
	}
	return s.guard(j, ctx, func() int {
		name := strings.TrimPrefix(recipient, "functions.")
		p := s.skipSpace(body, hi)
		if p >= hi {
			s.problem(msgCutOff, FormatHarmony, j, hi)
			return hi
		}
		if t[p] != '{' {
			end := s.findIn("<|call|>", p, hi)
			if end < 0 {
				end = hi
			}
			s.problem("The arguments of "+strconv.Quote(name)+" are not a JSON object, so the call was not run.", FormatHarmony, j, end)
			return end
		}
		r := s.readJSON(p, hi, "<|call|>", false)
		end := s.afterCloser(max(r.end, p), "<|call|>", hi)
		if !r.ok() {
			s.problem(r.msg, FormatHarmony, j, end)
			return end
		}
		obj, _ := r.vals[0].(ojson.Object)
		it := item{name: name, args: obj, format: FormatHarmony, start: j, end: end}
		if obj == nil {
			it.msg = "The arguments of " + strconv.Quote(name) + " must be a JSON object, so the call was not run."
		}
		s.add(it)
		return end
	})
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
