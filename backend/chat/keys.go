package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"sort"
	"strings"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// FoldName is how names are compared when case must not matter: the
// compatibility forms made one (NFKC: the Kelvin sign is K, a ligature its
// letters), then Unicode case folding (ſ and S are s, ß is ss). Never
// rules compare paths this way, and keys that fold alike are ambiguous.
func FoldName(s string) string {
	return norm.NFKC.String(cases.Fold().String(norm.NFKC.String(s)))
}

// AmbiguousKeys lists the keys of a JSON document that a reader may take
// in more than one way: a key written twice in one object, or keys of one
// object that differ only by case or compatibility form ("remote" and
// "REMOTE", "key" and "\u212Aey"). Go keeps the last of two equal keys,
// other readers the first; a case-insensitive decoder may read either of
// two look-alike keys. An exact-value rule never matches such arguments.
// Nil when there are none or the text is not JSON.
func AmbiguousKeys(raw json.RawMessage) []string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	k := keyScan{b: raw, found: map[string]bool{}}
	i, err := k.value(0, 0)
	if err == nil && k.ws(i) != len(raw) {
		err = errNotJSON
	}
	switch {
	case err == errTooDeep:
		return []string{"…"} // too deep to tell: ambiguous
	case err != nil || len(k.found) == 0:
		return nil
	}
	out := make([]string, 0, len(k.found))
	for key := range k.found {
		out = append(out, key)
	}
	sort.Strings(out)
	return out
}

// maxKeyDepth bounds the nesting AmbiguousKeys follows (deeper is refused
// by the tools' validation long before).
const maxKeyDepth = 64

var (
	errTooDeep = errors.New("nested too deeply")
	errNotJSON = errors.New("not JSON")
)

// keyScan reads JSON for its object keys only, skipping strings and
// numbers byte by byte (arguments may hold megabytes of file content:
// a token decoder took ~190 ms for 5 MB, this a few).
type keyScan struct {
	b     []byte
	found map[string]bool
}

func (k *keyScan) ws(i int) int {
	for i < len(k.b) && (k.b[i] == ' ' || k.b[i] == '\t' || k.b[i] == '\n' || k.b[i] == '\r') {
		i++
	}
	return i
}

// str skips the string at i (its opening quote) and returns the index
// after it, and whether it holds escapes.
func (k *keyScan) str(i int) (int, bool, error) {
	start := i + 1
	for i = start; ; {
		j := bytes.IndexByte(k.b[i:], '"')
		if j < 0 {
			return len(k.b), false, errNotJSON
		}
		q := i + j
		n := 0 // backslashes just before the quote: odd escapes it
		for p := q - 1; p >= start && k.b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1, bytes.IndexByte(k.b[start:q], '\\') >= 0, nil
		}
		i = q + 1
	}
}

// next reads what follows a member of an array or object: a comma (more
// to come) or its closing delimiter (done).
func (k *keyScan) next(i int, closing byte) (int, bool, error) {
	i = k.ws(i)
	switch {
	case i >= len(k.b):
		return i, false, errNotJSON
	case k.b[i] == closing:
		return i + 1, true, nil
	case k.b[i] != ',':
		return i, false, errNotJSON
	}
	return i + 1, false, nil
}

// value reads the value at i and returns the index after it.
func (k *keyScan) value(i, depth int) (int, error) {
	if depth > maxKeyDepth {
		return i, errTooDeep
	}
	i = k.ws(i)
	if i >= len(k.b) {
		return i, errNotJSON
	}
	switch k.b[i] {
	case '"':
		end, _, err := k.str(i)
		return end, err
	case '[':
		i = k.ws(i + 1)
		if i < len(k.b) && k.b[i] == ']' {
			return i + 1, nil
		}
		for {
			var err error
			if i, err = k.value(i, depth+1); err != nil {
				return i, err
			}
			done := false
			if i, done, err = k.next(i, ']'); done || err != nil {
				return i, err
			}
		}
	case '{':
		seen := map[string]string{} // folded → first spelling
		i = k.ws(i + 1)
		if i < len(k.b) && k.b[i] == '}' {
			return i + 1, nil
		}
		for {
			i = k.ws(i)
			if i >= len(k.b) || k.b[i] != '"' {
				return i, errNotJSON
			}
			end, esc, err := k.str(i)
			if err != nil {
				return end, err
			}
			key := string(k.b[i+1 : end-1])
			if esc && json.Unmarshal(k.b[i:end], &key) != nil {
				return end, errNotJSON
			}
			f := FoldName(key)
			if first, dup := seen[f]; dup {
				k.found[first], k.found[key] = true, true
			} else {
				seen[f] = key
			}
			i = k.ws(end)
			if i >= len(k.b) || k.b[i] != ':' {
				return i, errNotJSON
			}
			if i, err = k.value(i+1, depth+1); err != nil {
				return i, err
			}
			done := false
			if i, done, err = k.next(i, '}'); done || err != nil {
				return i, err
			}
		}
	}
	// A number, true, false or null: up to the next delimiter.
	start := i
	for i < len(k.b) && !strings.ContainsRune(",]} \t\r\n", rune(k.b[i])) {
		i++
	}
	if i == start {
		return i, errNotJSON
	}
	return i, nil
}
