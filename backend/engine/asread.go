package engine

import (
	"encoding/json"
	"strings"

	"airlock/backend/tools"
	"airlock/backend/tools/ojson"
)

// maxAsRead caps the text a problem card's arguments are read from.
const maxAsRead = 64 << 10

// argsAsRead is a best-effort reading of a problem call's arguments from its
// raw text (repaired leniently), for the card to show and the Fix form to
// start from. It is never run: the fixed call is validated like any other.
// Nil when nothing object-like can be read.
func argsAsRead(raw string) json.RawMessage {
	a, b := strings.IndexByte(raw, '{'), strings.LastIndexByte(raw, '}')
	if a < 0 || len(raw) > maxAsRead {
		return nil
	}
	text := raw[a:]
	if b > a {
		text = raw[a : b+1]
	}
	obj := readLeniently(text)
	if obj == nil {
		return nil
	}
	// A whole call, {"tool_calls":[{…}]} or {"name":…, "arguments":{…}}: its arguments.
	if tc, ok := obj.Get("tool_calls"); ok {
		if list, ok := tc.([]any); ok && len(list) > 0 {
			if first, ok := list[0].(ojson.Object); ok {
				obj = first
			}
		}
	}
	for _, k := range []string{"arguments", "parameters", "args"} {
		switch x, _ := obj.Get(k); x := x.(type) {
		case ojson.Object:
			return ojson.Encode(x)
		case string:
			if inner, err := nativeArguments(x); err == nil {
				return ojson.Encode(inner)
			}
		}
	}
	if _, named := obj.Get("name"); named || len(obj) == 0 {
		return nil
	}
	return ojson.Encode(obj)
}

// readLeniently repairs text into a JSON object; past damage it cannot
// repair, it keeps the members before it (dropping from the last comma on,
// a few times at most).
func readLeniently(text string) ojson.Object {
	for range 8 {
		if fixed, err := tools.SafeRepair(text); err == nil {
			if v, err := ojson.Decode([]byte(fixed)); err == nil {
				obj, _ := v.(ojson.Object)
				return obj
			}
		}
		cut := strings.LastIndexByte(text, ',')
		if cut <= 0 {
			return nil
		}
		text = text[:cut] + "}"
	}
	return nil
}

func isEmptyArgs(a json.RawMessage) bool {
	t := strings.TrimSpace(string(a))
	return t == "" || t == "{}" || t == "null"
}
