package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"sort"

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
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	found := map[string]bool{}
	switch err := walkKeys(dec, found, 0); {
	case err == errTooDeep:
		return []string{"…"} // too deep to tell: ambiguous
	case err != nil:
		return nil
	}
	out := make([]string, 0, len(found))
	for k := range found {
		out = append(out, k)
	}
	sort.Strings(out)
	if len(out) == 0 {
		return nil
	}
	return out
}

// maxKeyDepth bounds the nesting AmbiguousKeys follows (deeper is refused
// by the tools' validation long before).
const maxKeyDepth = 64

// walkKeys reads one value from dec, noting ambiguous keys of its objects.
func walkKeys(dec *json.Decoder, found map[string]bool, depth int) error {
	if depth > maxKeyDepth {
		return errTooDeep
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	switch d {
	case '[':
		for dec.More() {
			if err := walkKeys(dec, found, depth+1); err != nil {
				return err
			}
		}
	case '{':
		seen := map[string]string{} // folded → first spelling
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			k, _ := tok.(string)
			f := FoldName(k)
			if first, dup := seen[f]; dup {
				found[first], found[k] = true, true
			} else {
				seen[f] = k
			}
			if err := walkKeys(dec, found, depth+1); err != nil {
				return err
			}
		}
	}
	_, err = dec.Token() // the closing delimiter
	return err
}

var errTooDeep = errors.New("nested too deeply")
