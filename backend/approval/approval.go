// Package approval decides what may run without asking: always-allow rules,
// and the loop guard that overrides them. It knows nothing of the UI.
package approval

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"airlock/backend/chat"
)

// Rules answers whether an always-allow rule covers a tool in a chat.
type Rules interface {
	AllowedBy(ctx context.Context, tool, chatID string) (string, error)
}

// RepeatLimit is how many identical calls in a row may run by themselves:
// the next identical one waits for a person, whatever the rules say.
const RepeatLimit = 2

// LoopGuard returns why call must not run by itself ("" when it may):
// the model has already made the same call (same tool, same arguments)
// RepeatLimit times in a row. previous is the chat's earlier calls, oldest first.
func LoopGuard(previous []chat.Call, call chat.Call) string {
	if len(previous) < RepeatLimit {
		return ""
	}
	for _, p := range previous[len(previous)-RepeatLimit:] {
		if p.Name != call.Name || !sameJSON(p.EffectiveArguments(), call.Arguments) {
			return ""
		}
	}
	return fmt.Sprintf("Loop guard: the model made this exact call (%s with the same arguments) %d times in a row, so it waits for you even if the tool is always allowed.", call.Name, RepeatLimit+1)
}

// Auto decides whether a pending call runs without asking. by is the rule
// that allows it (chat.ByRuleChat or chat.ByRuleGlobal), or "" when a person
// must decide; guard says why a rule was overridden.
func Auto(ctx context.Context, rules Rules, previous []chat.Call, call chat.Call) (by, guard string, err error) {
	if call.State != chat.CallPending {
		return "", "", nil
	}
	by, err = rules.AllowedBy(ctx, call.Name, call.ChatID)
	if err != nil || by == "" {
		return "", "", err
	}
	if guard = LoopGuard(previous, call); guard != "" {
		return "", guard, nil
	}
	return by, "", nil
}

// DenialText is what the model is told when a person says no.
func DenialText(reason string) string {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return "The user denied this call. Do not retry it unchanged; ask the user or try something else."
	}
	return "The user denied this call. Reason: " + reason
}

// sameJSON compares two JSON values ignoring formatting and key order.
func sameJSON(a, b json.RawMessage) bool {
	if bytes.Equal(bytes.TrimSpace(a), bytes.TrimSpace(b)) {
		return true
	}
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return false
	}
	ca, _ := json.Marshal(va) // maps marshal with sorted keys
	cb, _ := json.Marshal(vb)
	return bytes.Equal(ca, cb)
}
