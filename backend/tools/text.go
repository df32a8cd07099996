package tools

import (
	"encoding/json"
	"strings"

	"airlock/backend/tools/ojson"
)

// Text is an argument value that a text format wrote without saying its
// type: <parameter=days>3</parameter>, VCP's days:「始」3「末」, GLM's
// <arg_value>. The tool's schema decides what it is (3 for an integer, "3"
// for a string, the integer when either would do); without a schema it
// stays text. JSON marks text the format says is JSON (DeepSeek's
// string="false"): without a schema it is decoded.
type Text struct {
	S    string
	JSON bool
	// Lit is S read as a literal list or object when it is one, in the
	// Python spelling models often use ({'k': True}); nil otherwise.
	Lit any
}

// Settle turns the Text values in v into what they are without a schema.
func Settle(v any) any { return settle(v, 0) }

func settle(v any, depth int) any {
	if depth > ojson.MaxDepth {
		return v
	}
	switch t := v.(type) {
	case Text:
		if t.JSON {
			if dv, err := ojson.Decode([]byte(strings.TrimSpace(t.S))); err == nil {
				return dv
			}
		}
		return t.S
	case ojson.Object:
		out := make(ojson.Object, len(t))
		for i, m := range t {
			out[i] = ojson.Member{Key: m.Key, Value: settle(m.Value, depth+1)}
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = settle(e, depth+1)
		}
		return out
	}
	return v
}

// coerceText reads a Text by the schema node: null where null is allowed
// and it says null; else the first of the non-string types it parses as;
// else the text.
func coerceText(t Text, node map[string]any, types []string, depth int) any {
	if len(types) == 0 {
		return settle(t, depth)
	}
	allows := func(x string) bool {
		for _, y := range types {
			if y == x {
				return true
			}
		}
		return false
	}
	if t.JSON {
		if dv, err := ojson.Decode([]byte(strings.TrimSpace(t.S))); err == nil && allows(jsonType(dv)) {
			return coerce(dv, node, depth+1)
		}
		if allows("string") {
			return t.S
		}
	}
	if allows("null") && isNullWord(t.S) {
		return nil
	}
	for _, x := range types {
		switch x {
		case "string", "null":
		case "array", "object":
			// Only a literal as written: "{not json" is text, not a repaired object.
			if dv, err := ojson.Decode([]byte(strings.TrimSpace(t.S))); err == nil && jsonType(dv) == x {
				return coerce(dv, node, depth+1)
			}
			if t.Lit != nil && jsonType(t.Lit) == x {
				return coerce(t.Lit, node, depth+1)
			}
		default:
			if nv, ok := fromString(t.S, []string{x}); ok {
				return coerce(nv, node, depth+1)
			}
		}
	}
	return t.S
}

// jsonType names the JSON type of a decoded value ("integer" for whole
// numbers, which a number schema accepts too).
func jsonType(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		if _, err := t.Int64(); err == nil {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case ojson.Object:
		return "object"
	}
	return ""
}
