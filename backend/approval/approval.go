// Package approval decides what may run without asking, and what never
// may: rules, the loop guard and the turn cap that override them, and what
// the model is told. Pure logic on chat types: the engine asks, the store
// keeps the rules, nothing here knows of SQLite or the UI.
//
// # Rules
//
// A rule (chat.Rule) allows or denies one tool (a canonical name, or a glob
// of names such as mcp__git__*) for
//
//   - any arguments;
//   - paths under a folder: every path argument of the tool
//     (tools.Tool.PathArgs, set by the file tools from their argument
//     types; MCP tools have none) lies at or under the folder, or under a
//     folder a glob matches ("src/*/gen", "**/secrets"), matched with
//     doublestar on clean, slash-separated paths relative to the
//     workspace root: an allow rule on the bytes the tool opens, a never
//     rule in NFKC with Unicode case folding (chat.FoldName);
//   - an exact value of one argument (JSON, keys sorted; a path argument
//     compares as a clean path: "./a" is "a"). Arguments with keys
//     written twice or alike but for case (chat.AmbiguousKeys) match no
//     allow rule on a value or a folder; a never rule matches any reading.
//
// A tool name typed in Settings is read as the scanner reads a model's
// (ToolsOf); a rule on one MCP tool follows the tool (server and its own
// name), not its sanitised name. A call a rule allowed is decided again
// just before it runs (Recheck): an earlier call of its answer may have
// changed the workspace.
//
// Paths are cleaned as the tools clean them (workspace.CleanPath: "..",
// absolute paths, drives, NUL and control characters never clean) and then
// resolved through the workspace's links (workspace.Resolve), so neither
// "docs/../secrets" nor a link docs/x → ../secrets is under docs. Allow
// rules are read narrowly and never rules broadly (see Matches).
//
// Scopes: "call" (the answer the card came from: this call and its
// siblings), "chat", "hour" (every chat, ExpiresAt an hour on), "session"
// (every chat, until Airlock quits: the store keeps it under this run's
// session id and drops it at the next start) and "always". A rule may also
// be tied to a chat in any scope (ChatID).
//
// # Decisions
//
// Decide: a never rule beats an allow rule; an allowed call is still held
// for a person by the loop guard (the same call a third time in a row) and
// by the turn cap (an answer past Settings' limit of model turns since the
// user wrote, which only Continue lets happen). Among several matching
// rules the narrowest scope, then the oldest, decides and is credited
// (uses, last used). Test replays a draft rule over a chat's calls.
//
// The chat's agent narrows or widens this (agent.go, chat.ApprovalMode):
// "reads" runs a call of a tool that only reads, with every path inside the
// workspace, when no rule does ("agent:<id>" decided); "ask" sets aside the
// allow rules for every chat (a call one covers is held, by the agent). A
// never rule denies whatever the agent says.
//
// Every decision, whoever made it, is a row of the audit trail
// (chat.AuditEntry, written by the engine).
package approval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"airlock/backend/chat"
)

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
