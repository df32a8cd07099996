package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/kaptinlin/jsonrepair"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"airlock/backend/tools/ojson"
	"airlock/backend/uitext"
)

// ArgumentError says the arguments of a call don't fit the tool's schema.
// Its message is written for the user and for the model alike.
type ArgumentError struct {
	Tool   string
	Field  string // dotted path of the first bad argument ("" for the whole object)
	Issues []string
	Hint   string // the expected arguments, briefly
}

func (e *ArgumentError) Error() string { return e.UIText().English }

// UIText is the error's sentence, coded for the UI's language: each issue
// by its template (issueTemplates), else in English.
func (e *ArgumentError) UIText() uitext.Text {
	issues := make([]uitext.Text, len(e.Issues))
	for i, is := range e.Issues {
		if t, ok := uitext.Match(is, issueTemplates...); ok {
			issues[i] = t
		} else {
			issues[i] = uitext.Plain(is)
		}
	}
	if e.Hint != "" {
		return txtArgumentErrorHint.With("tool", strconv.Quote(e.Tool), "issues", issues, "hint", e.Hint)
	}
	return txtArgumentError.With("tool", strconv.Quote(e.Tool), "issues", issues)
}

// Validate repairs the tool name, coerces the arguments by the schema
// (strings holding numbers, booleans, arrays or objects where the schema
// wants those; numbers and booleans where it wants a string), then validates
// them. It returns the canonical name and the arguments as compact JSON.
func (r *Registry) Validate(name string, args json.RawMessage) (string, json.RawMessage, error) {
	var obj ojson.Object
	if len(strings.TrimSpace(string(args))) > 0 {
		v, err := ojson.Decode(args)
		if err != nil {
			return "", nil, fmt.Errorf("tool %q: arguments are not valid JSON: %w", name, err)
		}
		o, ok := v.(ojson.Object)
		if !ok {
			return "", nil, &ArgumentError{Tool: name, Issues: []string{"arguments must be a JSON object"}}
		}
		obj = o
	}
	canon, out, err := r.Check(name, obj)
	if err != nil {
		return canon, nil, err
	}
	return canon, ojson.Encode(out), nil
}

// Normalize repairs the name and coerces the arguments towards the schema,
// as Check does, without validating: for tools that inspect calls (the
// corpus scorer, an edit form), not for running them. An unknown name is
// returned as it is.
func (r *Registry) Normalize(name string, args ojson.Object) (string, ojson.Object) {
	i := r.index(name)
	if i < 0 {
		args, _ = Settle(args).(ojson.Object)
		return name, args
	}
	if args == nil {
		args = ojson.Object{}
	}
	if r.schemas[i] == nil {
		args, _ = Settle(args).(ojson.Object)
		return r.specs[i].Name, args
	}
	args = unwrapArguments(args, r.shapes[i])
	if coerced, ok := Coerce(args, r.shapes[i]).(ojson.Object); ok {
		args = coerced
	}
	return r.specs[i].Name, args
}

// Check is Validate on already decoded arguments. On an error it still
// returns the arguments as read and coerced, for the problem card.
func (r *Registry) Check(name string, args ojson.Object) (string, ojson.Object, error) {
	i := r.index(name)
	if i < 0 {
		args, _ = Settle(args).(ojson.Object)
		return "", args, &UnknownToolError{Name: name, Known: r.Names()}
	}
	spec := r.specs[i]
	if args == nil {
		args = ojson.Object{}
	}
	sch := r.schemas[i]
	if sch == nil {
		args, _ = Settle(args).(ojson.Object)
		return spec.Name, args, nil
	}
	shape := r.shapes[i]
	args = unwrapArguments(args, shape)
	coerced, _ := Coerce(args, shape).(ojson.Object)
	if coerced == nil {
		coerced = args
	}
	if err := sch.Validate(ojson.Plain(coerced)); err != nil {
		return spec.Name, coerced, argumentError(spec.Name, r.hints[i], err)
	}
	return spec.Name, coerced, nil
}

// unwrapArguments undoes a model's wrapping of every argument in one more
// object ({"arguments": {"city": "Paris"}}) when the tool has no parameter
// by that name.
func unwrapArguments(args ojson.Object, shape any) ojson.Object {
	if len(args) != 1 {
		return args
	}
	switch args[0].Key {
	case "arguments", "args", "parameters", "params", "input":
	default:
		return args
	}
	inner, ok := args[0].Value.(ojson.Object)
	if t, isText := args[0].Value.(Text); isText {
		args[0].Value = t.S
	}
	if str, isStr := args[0].Value.(string); isStr {
		v, err := ojson.Decode([]byte(strings.TrimSpace(str)))
		inner, ok = v.(ojson.Object)
		ok = ok && err == nil
	}
	if !ok {
		return args
	}
	node, _ := shape.(map[string]any)
	props, _ := node["properties"].(map[string]any)
	if _, declared := props[args[0].Key]; declared || len(props) == 0 {
		return args
	}
	return inner
}

var printer = message.NewPrinter(language.English)

func argumentError(tool, hint string, err error) error {
	ae := &ArgumentError{Tool: tool, Hint: hint}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		ae.Issues = []string{err.Error()}
		return ae
	}
	seen := map[string]bool{}
	var walk func(e *jsonschema.ValidationError, depth int)
	walk = func(e *jsonschema.ValidationError, depth int) {
		if len(ae.Issues) >= 5 || depth > 50 {
			return
		}
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c, depth+1)
			}
			return
		}
		field, issue := describeIssue(e)
		if issue == "" || seen[issue] {
			return
		}
		seen[issue] = true
		if ae.Field == "" {
			ae.Field = field
		}
		ae.Issues = append(ae.Issues, issue)
	}
	walk(ve, 0)
	if len(ae.Issues) == 0 {
		ae.Issues = []string{"the arguments do not match the tool's schema"}
	}
	return ae
}

func describeIssue(e *jsonschema.ValidationError) (field, issue string) {
	field = strings.Join(e.InstanceLocation, ".")
	arg := "the arguments"
	if field != "" {
		arg = fmt.Sprintf("argument %q", field)
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		names := make([]string, len(k.Missing))
		for i, m := range k.Missing {
			if field != "" {
				m = field + "." + m
			}
			names[i] = strconv.Quote(m)
		}
		if len(names) == 1 {
			return strings.Trim(names[0], `"`), "missing required argument " + names[0]
		}
		return strings.Trim(names[0], `"`), "missing required arguments " + strings.Join(names, ", ")
	case *kind.Type:
		return field, fmt.Sprintf("%s must be %s, not %s", arg, strings.Join(k.Want, " or "), k.Got)
	case *kind.AdditionalProperties:
		names := make([]string, len(k.Properties))
		for i, p := range k.Properties {
			names[i] = strconv.Quote(p)
		}
		return field, "unknown argument " + strings.Join(names, ", ")
	case *kind.Enum:
		want := make([]string, 0, len(k.Want))
		for _, w := range k.Want {
			data, _ := json.Marshal(w)
			want = append(want, string(data))
		}
		return field, fmt.Sprintf("%s must be one of %s", arg, strings.Join(want, ", "))
	case *kind.Group, *kind.Schema, *kind.Reference:
		return field, ""
	default:
		return field, fmt.Sprintf("%s: %s", arg, e.ErrorKind.LocalizedString(printer))
	}
}

// DescribeParams summarises a parameters schema for messages, in the
// schema's order: `path (string, required), limit (integer)`.
func DescribeParams(raw json.RawMessage) string {
	v, _ := ojson.Decode(raw)
	obj, _ := v.(ojson.Object)
	pv, _ := obj.Get("properties")
	props, _ := pv.(ojson.Object)
	if len(props) == 0 {
		return ""
	}
	req := map[string]bool{}
	if rv, ok := obj.Get("required"); ok {
		if rs, ok := rv.([]any); ok {
			for _, r := range rs {
				if s, ok := r.(string); ok {
					req[s] = true
				}
			}
		}
	}
	parts := make([]string, 0, len(props))
	for _, m := range props {
		p, _ := ojson.Plain(m.Value).(map[string]any)
		t := strings.Join(schemaTypes(p), "|")
		if t == "" {
			t = "any"
		}
		if req[m.Key] {
			t += ", required"
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", m.Key, t))
	}
	return strings.Join(parts, ", ")
}

// schemaTypes lists the JSON types a schema node allows, looking through
// anyOf/oneOf; empty when it doesn't say.
func schemaTypes(node map[string]any) []string {
	if node == nil {
		return nil
	}
	switch t := node["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	var out []string
	for _, key := range []string{"anyOf", "oneOf"} {
		alts, _ := node[key].([]any)
		for _, a := range alts {
			am, _ := a.(map[string]any)
			out = append(out, schemaTypes(am)...)
		}
	}
	if len(out) == 0 {
		if _, ok := node["properties"]; ok {
			return []string{"object"}
		}
		if _, ok := node["items"]; ok {
			return []string{"array"}
		}
	}
	return out
}

// Coerce converts values towards what the schema node asks for, where the
// intent is clear: "42" → 42 for an integer, "true" → true, "[1,2]" → [1,2]
// for an array, 42 → "42" for a string. Anything it can't convert is left
// for validation to report.
func Coerce(v any, schema any) any {
	return coerce(v, schema, 0)
}

func coerce(v any, schema any, depth int) any {
	node, _ := schema.(map[string]any)
	if node == nil || depth > ojson.MaxDepth {
		return settle(v, depth)
	}
	types := schemaTypes(node)
	if t, ok := v.(Text); ok {
		if len(types) > 0 && !containsType(types, "integer") && containsType(types, "number") {
			types = append(types, "integer")
		}
		return coerceText(t, node, types, depth)
	}
	has := func(t string) bool {
		for _, x := range types {
			if x == t {
				return true
			}
		}
		return false
	}
	switch t := v.(type) {
	case string:
		if has("null") && isNullWord(t) {
			return nil // "null" or "None" written as text, where the schema allows null
		}
		if len(types) > 0 && !has("string") {
			if nv, ok := fromString(t, types); ok {
				return coerce(nv, schema, depth+1)
			}
		}
		return v
	case json.Number:
		if len(types) > 0 && !has("number") && !has("integer") && has("string") {
			return string(t)
		}
		if has("integer") && !has("number") {
			if f, err := strconv.ParseFloat(string(t), 64); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
				return json.Number(strconv.FormatInt(int64(f), 10))
			}
		}
		return v
	case bool:
		if len(types) > 0 && !has("boolean") && has("string") {
			return strconv.FormatBool(t)
		}
		return v
	case ojson.Object:
		props, _ := node["properties"].(map[string]any)
		addl := node["additionalProperties"]
		out := make(ojson.Object, len(t))
		for i, m := range t {
			sub, ok := props[m.Key]
			if !ok {
				sub = addl
			}
			out[i] = ojson.Member{Key: m.Key, Value: coerce(m.Value, sub, depth+1)}
		}
		return out
	case []any:
		items := node["items"]
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = coerce(e, items, depth+1)
		}
		return out
	}
	return v
}

func fromString(s string, types []string) (any, bool) {
	ts := strings.TrimSpace(s)
	for _, t := range types {
		switch t {
		case "integer":
			if i, err := strconv.ParseInt(ts, 10, 64); err == nil {
				return json.Number(strconv.FormatInt(i, 10)), true
			}
			if f, err := strconv.ParseFloat(ts, 64); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
				return json.Number(strconv.FormatInt(int64(f), 10)), true
			}
		case "number":
			if f, err := strconv.ParseFloat(ts, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
				if isJSONNumber(ts) {
					return json.Number(ts), true
				}
				return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), true
			}
		case "boolean":
			switch strings.ToLower(ts) {
			case "true", "yes":
				return true, true
			case "false", "no":
				return false, true
			}
		case "null":
			switch strings.ToLower(ts) {
			case "null", "none", "nil", "":
				return nil, true
			}
		case "array", "object":
			if ts == "" || (ts[0] != '[' && ts[0] != '{') {
				continue
			}
			v, err := ojson.Decode([]byte(ts))
			if err != nil && len(ts) <= 1<<20 {
				if fixed, rerr := SafeRepair(ts); rerr == nil {
					v, err = ojson.Decode([]byte(fixed))
				}
			}
			if err != nil {
				continue
			}
			switch v.(type) {
			case []any:
				if t == "array" {
					return v, true
				}
			case ojson.Object:
				if t == "object" {
					return v, true
				}
			}
		}
	}
	return nil, false
}

func containsType(types []string, t string) bool {
	for _, x := range types {
		if x == t {
			return true
		}
	}
	return false
}

func isNullWord(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "null", "none", "nil":
		return true
	}
	return false
}

func isJSONNumber(s string) bool {
	var n json.Number
	return json.Unmarshal([]byte(s), &n) == nil
}

// SafeRepair runs jsonrepair on text, turning any panic into an error.
func SafeRepair(text string) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = "", fmt.Errorf("jsonrepair: %v", r)
		}
	}()
	return jsonrepair.Repair(text)
}
