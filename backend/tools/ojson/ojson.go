// Package ojson decodes JSON keeping the order of object keys, and encodes it
// back compactly. Tool-call arguments travel through it so a card shows them
// in the order the model wrote them ("path" before "content").
//
// Values are: nil, bool, json.Number, string, []any and Object.
package ojson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// MaxDepth bounds nesting, so hostile input can't exhaust the stack.
const MaxDepth = 200

// Member is one key of an object.
type Member struct {
	Key   string
	Value any
}

// Object is a JSON object with its keys in order.
type Object []Member

// Get returns the value of key (the last one, if the key repeats).
func (o Object) Get(key string) (any, bool) {
	for i := len(o) - 1; i >= 0; i-- {
		if o[i].Key == key {
			return o[i].Value, true
		}
	}
	return nil, false
}

// Dedup returns o with each key once, at its first position, holding its
// last value (as JSON decoders do). Linear time; o itself is not changed.
func (o Object) Dedup() Object {
	if len(o) < 2 {
		return o
	}
	if len(o) <= 8 {
		dup := false
		for i := 1; i < len(o) && !dup; i++ {
			for j := 0; j < i; j++ {
				if o[i].Key == o[j].Key {
					dup = true
					break
				}
			}
		}
		if !dup {
			return o
		}
	}
	seen := make(map[string]int, len(o))
	out := make(Object, 0, len(o))
	for _, m := range o {
		if i, ok := seen[m.Key]; ok {
			out[i].Value = m.Value
			continue
		}
		seen[m.Key] = len(out)
		out = append(out, m)
	}
	return out
}

// DedupDeep is Dedup applied to every object inside v.
func DedupDeep(v any) any {
	return dedupDeep(v, 0)
}

func dedupDeep(v any, depth int) any {
	if depth > MaxDepth+10 {
		return v
	}
	switch t := v.(type) {
	case Object:
		t = t.Dedup()
		for i := range t {
			t[i].Value = dedupDeep(t[i].Value, depth+1)
		}
		return t
	case []any:
		for i := range t {
			t[i] = dedupDeep(t[i], depth+1)
		}
		return t
	}
	return v
}

// Set replaces key's value, or appends it. It is linear in the size of the
// object: to build large objects, append and Dedup once.
func (o *Object) Set(key string, v any) {
	for i := range *o {
		if (*o)[i].Key == key {
			(*o)[i].Value = v
			return
		}
	}
	*o = append(*o, Member{key, v})
}

// ErrTooDeep is returned for values nested deeper than MaxDepth.
var ErrTooDeep = errors.New("JSON nested too deeply")

// Decode parses exactly one JSON value (surrounding whitespace allowed).
func Decode(data []byte) (any, error) {
	v, n, err := DecodePrefix(data)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data[n:])) != 0 {
		return nil, fmt.Errorf("unexpected text after the JSON value at offset %d", n)
	}
	return v, nil
}

// DecodePrefix parses the first JSON value of data and returns how many
// bytes it used.
func DecodePrefix(data []byte) (v any, n int, err error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err = decodeValue(dec, 0)
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, 0, err
	}
	return v, int(dec.InputOffset()), nil
}

func decodeValue(dec *json.Decoder, depth int) (any, error) {
	if depth > MaxDepth {
		return nil, ErrTooDeep
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := Object{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key is not a string")
				}
				val, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				obj = append(obj, Member{key, val})
			}
			if _, err := dec.Token(); err != nil { // '}'
				return nil, err
			}
			return obj.Dedup(), nil
		case '[':
			arr := []any{}
			for dec.More() {
				val, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, val)
			}
			if _, err := dec.Token(); err != nil { // ']'
				return nil, err
			}
			return arr, nil
		}
		return nil, fmt.Errorf("unexpected %q", t)
	default:
		return t, nil // nil, bool, json.Number, string
	}
}

// Encode writes v compactly, without HTML escaping.
func Encode(v any) []byte {
	var b []byte
	return appendValue(b, v, 0)
}

func appendValue(b []byte, v any, depth int) []byte {
	if depth > MaxDepth+10 {
		return append(b, "null"...)
	}
	switch t := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, t)
	case json.Number:
		if t == "" {
			return append(b, '0')
		}
		return append(b, t...)
	case float64:
		return strconv.AppendFloat(b, t, 'g', -1, 64)
	case int:
		return strconv.AppendInt(b, int64(t), 10)
	case int64:
		return strconv.AppendInt(b, t, 10)
	case string:
		return AppendString(b, t)
	case []any:
		b = append(b, '[')
		for i, e := range t {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendValue(b, e, depth+1)
		}
		return append(b, ']')
	case Object:
		b = append(b, '{')
		for i, m := range t {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendString(b, m.Key)
			b = append(b, ':')
			b = appendValue(b, m.Value, depth+1)
		}
		return append(b, '}')
	case map[string]any:
		// Only for callers that built plain maps; order is Go's.
		data, err := json.Marshal(t)
		if err != nil {
			return append(b, "null"...)
		}
		return append(b, data...)
	default:
		data, err := json.Marshal(t)
		if err != nil {
			return append(b, "null"...)
		}
		return append(b, data...)
	}
}

const hex = "0123456789abcdef"

// AppendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// Plain converts Objects to map[string]any (recursively), for libraries that
// want Go's generic JSON shape.
func Plain(v any) any {
	switch t := v.(type) {
	case Object:
		m := make(map[string]any, len(t))
		for _, mem := range t {
			m[mem.Key] = Plain(mem.Value)
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = Plain(e)
		}
		return out
	default:
		return v
	}
}
