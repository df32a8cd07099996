package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// What the model is told when a person changed its call before it ran: a
// short note at the start of the result, in every paradigm and in native
// tool messages, so the model knows the result is not of what it asked.

// Fixed reports a problem card that a person fixed and ran: it keeps the
// problem text, and left the problem state.
func (c Call) Fixed() bool { return c.Problem != "" && c.State != CallProblem }

// ran reports a call that has run (or is running), not one denied or told.
func (c Call) ran() bool {
	switch c.State {
	case CallApproved, CallRunning, CallDone, CallError:
		return true
	}
	return false
}

// EditNote is the note for a call that ran with arguments a person changed
// (an edit, or a Fix and run of a problem card); "" otherwise.
func (c Call) EditNote() string {
	if !c.ran() {
		return ""
	}
	if c.Fixed() {
		run := c.EffectiveArguments()
		note := fmt.Sprintf("The user fixed this call before running it; it ran as %s with %s.", c.Name, clip(compactJSON(run), 300))
		if changes := ArgumentChanges(c.Arguments, run); changes != "" && len(c.Edited) > 0 {
			note += " Changes: " + changes + "."
		}
		return note
	}
	if len(c.Edited) == 0 {
		return ""
	}
	changes := ArgumentChanges(c.Arguments, c.Edited)
	if changes == "" {
		return ""
	}
	return "The user edited the arguments before running: " + changes + "."
}

// ResultForModel is the result text the model reads: the edit note, if
// any, then the result.
func (c Call) ResultForModel(result string) string {
	if note := c.EditNote(); note != "" {
		return note + "\n\n" + result
	}
	return result
}

// ArgumentChanges says how two argument objects differ, key by key (the
// changed ones, then the added, then the removed, each by name):
// `path "a.txt" → "b.txt"; added "limit" = 5; removed "force"`. Values are
// shown as compact JSON, long ones cut; "" when they are the same.
func ArgumentChanges(before, after json.RawMessage) string {
	var a, b map[string]json.RawMessage
	if json.Unmarshal(orEmpty(before), &a) != nil || json.Unmarshal(orEmpty(after), &b) != nil || a == nil || b == nil {
		x, y := compactJSON(before), compactJSON(after)
		if x == y {
			return ""
		}
		return fmt.Sprintf("arguments %s → %s", clip(x, 200), clip(y, 200))
	}
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var changed, added, removed []string
	for _, k := range keys {
		va, inA := a[k]
		vb, inB := b[k]
		switch {
		case !inB:
			removed = append(removed, "removed "+strconv.Quote(k))
		case !inA:
			added = append(added, fmt.Sprintf("added %s = %s", strconv.Quote(k), clip(compactJSON(vb), 120)))
		case compactJSON(va) != compactJSON(vb):
			changed = append(changed, fmt.Sprintf("%s %s → %s", k, clip(compactJSON(va), 120), clip(compactJSON(vb), 120)))
		}
	}
	s := strings.Join(append(append(changed, added...), removed...), "; ")
	return clip(s, 1000)
}

func orEmpty(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}

// compactJSON is a JSON value in one canonical form (keys sorted), or the
// text itself when it is not JSON.
func compactJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(orEmpty(raw), &v) != nil {
		return strings.TrimSpace(string(raw))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(buf.String())
}

// clip cuts s after max bytes (at a rune boundary), marking the cut.
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// BoundJSON keeps a JSON value under max bytes for the audit trail: when
// it is larger, its long strings are cut (marked with how much was cut),
// and a value still too large becomes {"truncated":true,"bytes":N}. The
// result is always valid JSON; nil stays nil.
func BoundJSON(raw json.RawMessage, max int) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		q, _ := json.Marshal(clip(string(raw), max/2))
		return q
	}
	if len(raw) <= max {
		var buf bytes.Buffer
		if json.Compact(&buf, raw) == nil {
			return buf.Bytes()
		}
	}
	for limit := 4096; limit >= 64; limit /= 4 {
		out, _ := json.Marshal(cutStrings(v, limit))
		if len(out) <= max {
			return out
		}
	}
	out, _ := json.Marshal(map[string]any{"truncated": true, "bytes": len(raw)})
	return out
}

func cutStrings(v any, limit int) any {
	switch x := v.(type) {
	case string:
		if len(x) > limit {
			return clip(x, limit) + fmt.Sprintf(" [%d bytes cut]", len(x)-limit)
		}
		return x
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cutStrings(e, limit)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = cutStrings(e, limit)
		}
		return out
	}
	return v
}
