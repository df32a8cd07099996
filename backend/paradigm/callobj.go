package paradigm

import (
	"encoding/json"
	"strconv"
	"strings"

	"airlock/backend/tools/ojson"
)

// Call objects: how a decoded JSON value is read as calls, whatever syntax
// carried it. The shapes models write:
//
//	{"name": "f", "arguments": {…}}                     Hermes, Qwen, xLAM, Granite, …
//	{"name": "f", "parameters": {…}}                    Llama 3.x, InternLM
//	{"type": "function", "function": {"name", "arguments": "<json>"}}   the OpenAI API's shape
//	{"tool_calls": [ … ]}                               Airlock's JSON paradigm, OpenAI messages
//	{"tool_name": "f", "parameters": {…}}               Command R
//	{"function": {"_name": "f", "k": "v"}}              TGI's grammar output
//	{"f": {…}}                                          Apertus (explicit contexts only)
//	{"action": "f", "action_input": {…}}                ReAct-style agents

var nameKeys = []string{"name", "tool_name", "toolName", "function_name", "functionName", "tool", "function", "recipient_name"}
var argKeys = []string{"arguments", "parameters", "args", "input", "params", "tool_input", "argument", "action_input"}
var idKeys = []string{"id", "call_id", "tool_call_id", "toolCallId", "callId"}

type callObj struct {
	id, name string
	args     ojson.Object
	msg      string
	hasArgs  bool
	shape    string // the family the shape says: openai_json, tgi, llama_json; "" when generic
}

// callsIn interprets a decoded JSON value as calls. explicit means the
// context already said "this is a call" (a <tool_call> tag, [TOOL_CALLS]):
// then anything that isn't a call is a problem. Otherwise, only values
// shaped like calls count, and ok is false for anything else.
func callsIn(v any, explicit bool) (calls []callObj, envelope bool, ok bool) {
	switch t := v.(type) {
	case []any:
		any1 := false
		for _, e := range t {
			c, isCall := callFrom(e, explicit)
			if isCall {
				any1 = true
			}
			if isCall || explicit {
				calls = append(calls, c)
			}
		}
		if !any1 && !explicit {
			return nil, false, false
		}
		return calls, false, len(calls) > 0
	case ojson.Object:
		for _, key := range []string{"tool_calls", "toolCalls", "tool_uses", "function_calls"} {
			inner, has := t.Get(key)
			if !has {
				continue
			}
			switch it := inner.(type) {
			case []any:
				for _, e := range it {
					c, _ := callFrom(e, true)
					calls = append(calls, c)
				}
				return calls, true, true
			case ojson.Object:
				c, _ := callFrom(it, true)
				return []callObj{c}, true, true
			default:
				return []callObj{{msg: `"` + key + `" must be a list of calls.`}}, true, true
			}
		}
		c, isCall := callFrom(t, explicit)
		if !isCall && !explicit {
			return nil, false, false
		}
		return []callObj{c}, false, true
	}
	if explicit {
		return []callObj{{msg: "This is not a tool call: expected a JSON object with \"name\" and \"arguments\"."}}, false, true
	}
	return nil, false, false
}

// callFrom reads one call object. isCall says whether it is shaped like
// one (a name, and arguments or the function wrapper).
func callFrom(v any, explicit bool) (c callObj, isCall bool) {
	o, ok := v.(ojson.Object)
	if !ok {
		return callObj{msg: "This is not a tool call: expected a JSON object with \"name\" and \"arguments\"."}, false
	}
	c.id = idOf(o)
	src := o
	if fn, has := o.Get("function"); has {
		if fo, isObj := fn.(ojson.Object); isObj {
			if tgi, isTGI := tgiCall(fo); isTGI {
				tgi.id = c.id
				return tgi, true
			}
			src = fo
			c.shape = FormatOpenAI
			if c.id == "" {
				c.id = idOf(fo)
			}
		}
	}
	for _, k := range nameKeys {
		if nv, has := src.Get(k); has {
			if ns, isStr := nv.(string); isStr {
				c.name = strings.TrimSpace(ns)
				break
			}
		}
	}
	if c.name == "" {
		if act, has := src.Get("action"); has {
			if _, hasIn := src.Get("action_input"); hasIn {
				c.name, _ = act.(string)
			}
		}
	}
	var argv any
	for _, k := range argKeys {
		if av, has := src.Get(k); has {
			argv, c.hasArgs = av, true
			if k == "parameters" && c.shape == "" {
				c.shape = FormatLlama
			}
			break
		}
	}
	if c.name == "" && !c.hasArgs && explicit && len(o) == 1 {
		// Apertus: {"get_weather": {"city": "Paris"}}
		if a, isObj := o[0].Value.(ojson.Object); isObj && validName(o[0].Key, true) {
			return callObj{name: o[0].Key, args: a, hasArgs: true}, true
		}
	}
	typ, _ := o.Get("type")
	isCall = c.name != "" && (c.hasArgs || c.shape == FormatOpenAI || typ == "function")
	if !isCall && !explicit {
		return c, false
	}
	if c.name == "" {
		c.msg = "The tool call has no tool name, so it was not run."
		return c, isCall
	}
	if !validName(c.name, !explicit) {
		if !explicit {
			return c, false // a placeholder like <function-name> in prose
		}
		c.msg = strconv.Quote(c.name) + " is not a tool name, so the call was not run."
		return c, isCall
	}
	if !explicit && isDefinition(src, argv) {
		return c, false
	}
	switch a := argv.(type) {
	case nil:
		c.args = ojson.Object{}
	case ojson.Object:
		c.args = a
	case string:
		args, ok := decodeArgString(a)
		if !ok {
			c.msg = "The arguments of " + strconv.Quote(c.name) + " are a string that is not a JSON object, so the call was not run. Give \"arguments\" as a JSON object."
			return c, isCall
		}
		c.args = args
	default:
		c.msg = "The arguments of " + strconv.Quote(c.name) + " must be a JSON object, so the call was not run."
	}
	return c, isCall
}

// tgiCall reads TGI's grammar output, {"function": {"_name": "f", "k": v}}:
// the name and the arguments side by side.
func tgiCall(fo ojson.Object) (callObj, bool) {
	nv, has := fo.Get("_name")
	name, isStr := nv.(string)
	if !has || !isStr || strings.TrimSpace(name) == "" || name == "no_tool" {
		return callObj{}, false // no_tool: TGI's sentinel for a plain answer
	}
	args := ojson.Object{}
	for _, m := range fo {
		if m.Key != "_name" {
			args = append(args, m)
		}
	}
	return callObj{name: strings.TrimSpace(name), args: args, hasArgs: true, shape: FormatTGI}, true
}

func idOf(o ojson.Object) string {
	for _, k := range idKeys {
		if v, has := o.Get(k); has {
			switch t := v.(type) {
			case string:
				return t
			case json.Number:
				return string(t)
			}
		}
	}
	return ""
}

// isDefinition spots a tool definition echoed by the model (a name, a
// description and a parameters *schema*): not a call.
func isDefinition(o ojson.Object, args any) bool {
	a, ok := args.(ojson.Object)
	if !ok {
		return false
	}
	typ, _ := a.Get("type")
	_, hasProps := a.Get("properties")
	if typ == "object" && hasProps {
		return true
	}
	_, hasDesc := o.Get("description")
	return hasDesc && hasProps
}

// jsonCalls adds the calls found in r. label "" derives the family from the
// shape (envelope → json, function wrapper → openai_json, else llama_json),
// and fenced marks a code fence, where the JSON paradigm's calls live. It
// reports whether r held calls; when explicit, anything it held is reported
// (as calls or problems).
func (s *scanner) jsonCalls(r jsonRead, label string, start, end int, explicit, fenced bool) bool {
	found := false
	for _, b := range r.bad {
		f := label
		if f == "" {
			f = FormatLlama
		}
		s.problem(b.msg, f, b.start, b.end)
	}
	for _, v := range r.vals {
		calls, envelope, ok := callsIn(v, explicit)
		if !ok {
			continue
		}
		for _, c := range calls {
			f := label
			if f == "" {
				switch {
				case envelope || (fenced && s.on.has(FormatJSON)):
					f = FormatJSON
				case c.shape != "":
					f = c.shape
				default:
					f = FormatLlama
				}
			}
			found = true
			s.add(item{id: c.id, name: c.name, args: c.args, msg: c.msg, format: f, start: start, end: end})
		}
	}
	return found
}
