package approval

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"airlock/backend/chat"
)

func anyRule(id int64, effect chat.RuleEffect, tool string, scope chat.RuleScope) chat.Rule {
	r := chat.Rule{ID: id, Effect: effect, Tool: tool, Match: chat.RuleMatch{Kind: chat.MatchAny}, Scope: scope}
	if scope == chat.ScopeChat {
		r.ChatID = "c"
	}
	return r
}

func TestDecidePrecedence(t *testing.T) {
	read := subject("read_file", `{"path":"secrets/key"}`, "path")
	readDocs := subject("read_file", `{"path":"docs/a"}`, "path")
	allowAll := anyRule(1, chat.RuleAllow, "read_file", chat.ScopeAlways)
	allowChat := anyRule(2, chat.RuleAllow, "read_file", chat.ScopeChat)
	neverSecrets := pathRule(chat.RuleDeny, "read_file", "secrets")
	neverSecrets.ID = 3
	same := read.Call
	cases := []struct {
		name     string
		in       Input
		verdict  Verdict
		ruleID   int64
		guardBy  string
		guardHas string
	}{
		{"no rule: a person decides", Input{Subject: read}, Ask, 0, "", ""},
		{"an allow rule runs it", Input{Rules: []chat.Rule{allowAll}, Subject: read}, Allow, 1, "", ""},
		{"never beats allow", Input{Rules: []chat.Rule{allowAll, neverSecrets}, Subject: read}, Deny, 3, "", ""},
		{"never beats allow, whatever the order", Input{Rules: []chat.Rule{neverSecrets, allowChat, allowAll}, Subject: read}, Deny, 3, "", ""},
		{"a never rule that does not match", Input{Rules: []chat.Rule{allowAll, neverSecrets}, Subject: readDocs}, Allow, 1, "", ""},
		{"the narrowest scope is credited", Input{Rules: []chat.Rule{allowAll, allowChat}, Subject: read}, Allow, 2, "", ""},
		{"the loop guard holds an allowed call", Input{Rules: []chat.Rule{allowAll}, Previous: []chat.Call{same, same}, Subject: read}, Held, 1, chat.ByLoopGuard, "Loop guard"},
		{"the loop guard does not hold a denied call", Input{Rules: []chat.Rule{allowAll, neverSecrets}, Previous: []chat.Call{same, same}, Subject: read}, Deny, 3, "", ""},
		{"past the turn cap", Input{Rules: []chat.Rule{allowAll}, Subject: read, Turn: 3, MaxTurns: 2}, Held, 1, chat.ByTurnCap, "Turn cap"},
		{"at the turn cap", Input{Rules: []chat.Rule{allowAll}, Subject: read, Turn: 2, MaxTurns: 2}, Allow, 1, "", ""},
		{"the turn cap does not stop a never rule", Input{Rules: []chat.Rule{neverSecrets}, Subject: read, Turn: 9, MaxTurns: 2}, Deny, 3, "", ""},
		{"an expired allow rule", Input{Rules: []chat.Rule{{ID: 4, Effect: chat.RuleAllow, Tool: "read_file", Match: chat.RuleMatch{Kind: chat.MatchAny},
			Scope: chat.ScopeHour, ExpiresAt: 100}}, Subject: read, Now: 100}, Ask, 0, "", ""},
		{"an expired never rule", Input{Rules: []chat.Rule{allowAll, {ID: 5, Effect: chat.RuleDeny, Tool: "read_file", Match: chat.RuleMatch{Kind: chat.MatchAny},
			Scope: chat.ScopeHour, ExpiresAt: 100}}, Subject: read, Now: 150}, Allow, 1, "", ""},
	}
	for _, c := range cases {
		d := Decide(c.in)
		if d.Verdict != c.verdict || d.Rule.ID != c.ruleID || d.By != c.guardBy || !strings.Contains(d.Guard, c.guardHas) {
			t.Errorf("%s: %+v", c.name, d)
		}
	}
	problem := read
	problem.Call.State = chat.CallProblem
	if d := Decide(Input{Rules: []chat.Rule{allowAll}, Subject: problem}); d.Verdict != Ask {
		t.Errorf("a problem card never runs by itself: %+v", d)
	}
}

func TestNewRule(t *testing.T) {
	card := chat.Call{ID: "k1", ChatID: "c1", MessageID: "m1", Name: "read_file", Arguments: json.RawMessage(`{"path":"./docs/guide/a.md","limit":5}`)}
	known := func(name string) (ToolInfo, bool) {
		switch name {
		case "read_file":
			return ToolInfo{Name: name, PathArgs: []string{"path"}}, true
		case "mcp__git__run":
			return ToolInfo{Name: name}, true
		}
		return ToolInfo{}, false
	}
	const now = int64(1000)
	ok := func(d Draft, from *chat.Call) chat.Rule {
		t.Helper()
		r, err := NewRule(d, from, known, now)
		if err != nil {
			t.Fatalf("%+v: %v", d, err)
		}
		return r
	}
	r := ok(Draft{Match: chat.MatchPath, Scope: chat.ScopeChat}, &card)
	if r.Tool != "read_file" || r.Match.Path != "docs/guide" || r.ChatID != "c1" || r.Effect != chat.RuleAllow || r.FromCall != "k1" || r.CreatedAt != now {
		t.Errorf("path rule offered from the card: %+v", r)
	}
	if r := ok(Draft{Match: chat.MatchPath, Path: "docs/", Scope: chat.ScopeAlways}, &card); r.Match.Path != "docs" || r.ChatID != "" {
		t.Errorf("path rule with a folder: %+v", r)
	}
	if r := ok(Draft{Match: chat.MatchPath, Path: "docs/caf\u0065\u0301", Scope: chat.ScopeSession}, &card); r.Match.Path != "docs/caf\u0065\u0301" {
		t.Errorf("a folder is stored in the bytes typed (rules match those): %q", r.Match.Path)
	}
	if r := ok(Draft{Match: chat.MatchExact, Arg: "path", Scope: chat.ScopeHour}, &card); string(r.Match.Value) != `"docs/guide/a.md"` || r.ExpiresAt != now+Hour {
		t.Errorf("exact path from the card, for an hour: %+v", r)
	}
	if r := ok(Draft{Match: chat.MatchExact, Arg: "limit", Scope: chat.ScopeCall}, &card); string(r.Match.Value) != `5` || r.MessageID != "m1" || r.ChatID != "c1" {
		t.Errorf("exact value for this call: %+v", r)
	}
	if r := ok(Draft{Effect: chat.RuleDeny, Tool: "mcp__git__*", Scope: chat.ScopeAlways, Message: "  no git  "}, nil); r.Message != "no git" || r.FromCall != "" {
		t.Errorf("never rule with a message, from Settings: %+v", r)
	}
	for _, bad := range []struct {
		d    Draft
		from *chat.Call
		want string
	}{
		{Draft{Match: chat.MatchPath, Scope: chat.ScopeChat}, &chat.Call{Name: "mcp__git__run", ChatID: "c"}, "takes no paths"},
		{Draft{Match: chat.MatchPath, Path: "../up", Scope: chat.ScopeAlways}, &card, "leaves the workspace"},
		{Draft{Match: chat.MatchPath, Path: "/etc", Scope: chat.ScopeAlways}, &card, "absolute"},
		{Draft{Match: chat.MatchPath, Path: "docs/[", Scope: chat.ScopeAlways}, &card, "not a valid glob"},
		{Draft{Match: chat.MatchPath, Tool: "gone_tool", Path: "docs", Scope: chat.ScopeAlways}, &card, "not a tool Airlock knows"},
		{Draft{Match: chat.MatchExact, Scope: chat.ScopeAlways}, &card, "which argument"},
		{Draft{Match: chat.MatchExact, Arg: "offset", Scope: chat.ScopeAlways}, &card, "no argument"},
		{Draft{Match: chat.MatchExact, Arg: "path", Value: json.RawMessage(`"../x"`), Scope: chat.ScopeAlways}, &card, "leaves the workspace"},
		{Draft{Match: "regex", Scope: chat.ScopeAlways}, &card, "not \"regex\""},
		{Draft{Scope: "forever"}, &card, "not \"forever\""},
		{Draft{Scope: chat.ScopeCall, Tool: "read_file"}, nil, "made from its card"},
		{Draft{Scope: chat.ScopeChat, Tool: "read_file"}, nil, "which chat"},
		{Draft{Scope: chat.ScopeAlways}, nil, "which tool"},
		{Draft{Tool: "a/b", Scope: chat.ScopeAlways}, nil, "not a tool name"},
		{Draft{Tool: "mcp__[", Scope: chat.ScopeAlways}, nil, "not a valid glob"},
		{Draft{Effect: "maybe", Scope: chat.ScopeAlways}, &card, "neither"},
		{Draft{Effect: chat.RuleDeny, Scope: chat.ScopeAlways, Message: strings.Repeat("x", MaxMessage+1)}, &card, "too long"},
	} {
		_, err := NewRule(bad.d, bad.from, known, now)
		if !errors.Is(err, chat.ErrInvalid) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%+v: %v (want %q)", bad.d, err, bad.want)
		}
	}
}

func TestSuggestFolder(t *testing.T) {
	for _, c := range []struct {
		tool, args, want string
	}{
		{"read_file", `{"path":"docs/a.md"}`, "docs"},
		{"read_file", `{"path":"a.md"}`, "."},
		{"read_file", `{"path":"docs/../secrets/k"}`, "secrets"},
		{"list_directory", `{"path":"docs"}`, "docs"},
		{"list_directory", `{}`, "."},
		{"read_file", `{"path":"/etc/passwd"}`, "."},
	} {
		if got := SuggestFolder(chat.Call{Name: c.tool, Arguments: json.RawMessage(c.args)}, []string{"path"}); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.tool, c.args, got, c.want)
		}
	}
}

func TestTestRule(t *testing.T) {
	call := func(id, msg, path string, state chat.CallState) chat.Call {
		return chat.Call{ID: id, ChatID: "c", MessageID: msg, Name: "read_file", Arguments: json.RawMessage(`{"path":"` + path + `"}`), State: state}
	}
	calls := []chat.Call{
		call("1", "m1", "docs/a", chat.CallDone),
		call("2", "m1", "src/b", chat.CallDenied),
		call("3", "m2", "docs/../secrets", chat.CallDone),
		call("4", "m2", "docs/c", chat.CallProblem),
		call("5", "m3", "docs/d", chat.CallPending),
	}
	s := func(c chat.Call) Subject { return Subject{Call: c, PathArgs: []string{"path"}} }
	r := pathRule(chat.RuleAllow, "read_file", "docs")
	var ids []string
	for _, c := range Test(r, calls, s) {
		ids = append(ids, c.ID)
	}
	if strings.Join(ids, ",") != "1,5" {
		t.Errorf("a rule on docs would have covered %v", ids)
	}
	r.Scope, r.ChatID, r.MessageID = chat.ScopeCall, "c", "m1"
	if got := Test(r, calls, s); len(got) != 1 || got[0].ID != "1" {
		t.Errorf("a rule for one answer: %+v", got)
	}
}

func TestDescribeAndNeverText(t *testing.T) {
	r := pathRule(chat.RuleDeny, "read_file", "secrets")
	r.ID, r.Scope, r.Message = 7, chat.ScopeChat, "Those are my keys."
	if got := Describe(r); got != "never allow read_file with paths under secrets · this chat" {
		t.Errorf("Describe = %q", got)
	}
	if got := NeverText(r); !strings.Contains(got, "rule 7") || !strings.Contains(got, "Those are my keys.") {
		t.Errorf("NeverText = %q", got)
	}
	r.Message = ""
	if got := NeverText(r); !strings.Contains(got, "Do not retry") {
		t.Errorf("NeverText without a message = %q", got)
	}
	if got := Describe(exactRule(chat.RuleAllow, "mcp__git__run", "cmd", `"status"`)); got != `allow mcp__git__run when cmd = "status" · always` {
		t.Errorf("Describe = %q", got)
	}
}

// A repaired call (its closers added by Airlock) never runs by a rule: an
// allow rule holds it for a person, with the reason; a never rule still
// denies it; without a rule a person decides, as for any call.
func TestDecideRepairedWaits(t *testing.T) {
	read := subject("read_file", `{"path":"docs/a"}`, "path")
	read.Call.Repaired = true
	allow := anyRule(1, chat.RuleAllow, "read_file", chat.ScopeAlways)
	d := Decide(Input{Rules: []chat.Rule{allow}, Subject: read})
	if d.Verdict != Held || d.By != chat.ByRepaired || !strings.Contains(d.Guard, "Repaired") || d.Rule.ID != 1 {
		t.Fatalf("allowed repaired call: %+v", d)
	}
	deny := anyRule(2, chat.RuleDeny, "read_file", chat.ScopeAlways)
	if d := Decide(Input{Rules: []chat.Rule{allow, deny}, Subject: read}); d.Verdict != Deny {
		t.Errorf("never rule on a repaired call: %+v", d)
	}
	if d := Decide(Input{Subject: read}); d.Verdict != Ask {
		t.Errorf("no rule: %+v", d)
	}
	read.Call.Repaired = false
	if d := Decide(Input{Rules: []chat.Rule{allow}, Subject: read}); d.Verdict != Allow {
		t.Errorf("the same call, complete, runs by the rule: %+v", d)
	}
	if !chat.ValidDecidedBy(chat.ByRepaired) {
		t.Error("repaired is not a valid decider")
	}
}
