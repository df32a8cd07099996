package approval

import (
	"testing"

	"airlock/backend/chat"
)

// An agent's approval defaults in Decide and Recheck: a never rule beats
// the "reads" default; "reads" needs a tool that only reads, arguments
// that are one object, and paths inside the workspace; the loop guard
// holds what the agent allows; "ask" sets aside rules for every chat and
// keeps the chat's; Recheck reads the agent as Decide does.
func TestAgentDefaults(t *testing.T) {
	reads := chat.Agent{ID: "rv", Name: "Reviewer", Approval: chat.ApprovalReads}
	ask := chat.Agent{ID: "cf", Name: "Careful", Approval: chat.ApprovalAsk}
	ro := func(s Subject) Subject { s.ReadOnly = true; return s }
	docs := ro(subject("read_file", `{"path":"docs/a"}`, "path"))
	neverSecrets := pathRule(chat.RuleDeny, "read_file", "secrets")
	global := anyRule(7, chat.RuleAllow, "read_file", chat.ScopeAlways)
	here := anyRule(8, chat.RuleAllow, "read_file", chat.ScopeChat)
	cases := []struct {
		name    string
		in      Input
		verdict Verdict
		by      string
		ruleID  int64
	}{
		{"reads: a read in the workspace runs", Input{Agent: reads, Subject: docs}, Allow, "agent:rv", 0},
		{"reads: a never rule still denies", Input{Agent: reads, Rules: []chat.Rule{neverSecrets}, Subject: ro(subject("read_file", `{"path":"secrets/k"}`, "path"))}, Deny, "", 1},
		{"reads: a tool that writes asks", Input{Agent: reads, Subject: subject("write_file", `{"path":"docs/a"}`, "path")}, Ask, "", 0},
		{"reads: a path outside asks", Input{Agent: reads, Subject: ro(subject("read_file", `{"path":"../etc/passwd"}`, "path"))}, Ask, "", 0},
		{"reads: arguments that are no object ask", Input{Agent: reads, Subject: ro(subject("calculator", `[1]`))}, Ask, "", 0},
		{"reads: a path-less read-only tool runs", Input{Agent: reads, Subject: ro(subject("calculator", `{"expression":"1+1"}`))}, Allow, "agent:rv", 0},
		{"reads: an allow rule is credited before the agent", Input{Agent: reads, Rules: []chat.Rule{global}, Subject: docs}, Allow, "", 7},
		{"reads: the loop guard holds what the agent allows", Input{Agent: reads, Subject: docs, Previous: []chat.Call{docs.Call, docs.Call}}, Held, chat.ByLoopGuard, 0},
		{"ask: a rule for every chat is held by the agent", Input{Agent: ask, Rules: []chat.Rule{global}, Subject: docs}, Held, "agent:cf", 7},
		{"ask: a rule for this chat still runs it", Input{Agent: ask, Rules: []chat.Rule{global, here}, Subject: docs}, Allow, "", 8},
		{"rules: a rule for every chat runs it", Input{Agent: chat.Agent{ID: "d", Approval: chat.ApprovalRules}, Rules: []chat.Rule{global}, Subject: docs}, Allow, "", 7},
		{"rules: no rule, even for a read, asks", Input{Agent: chat.Agent{ID: "d", Approval: chat.ApprovalRules}, Subject: docs}, Ask, "", 0},
	}
	for _, tc := range cases {
		d := Decide(tc.in)
		if d.Verdict != tc.verdict || d.By != tc.by || d.Rule.ID != tc.ruleID {
			t.Errorf("%s: %+v; want %s by %q rule %d", tc.name, d, tc.verdict, tc.by, tc.ruleID)
		}
	}
	if d := Recheck(nil, reads, docs, 0); d.Verdict != Allow || d.Decider() != "agent:rv" {
		t.Errorf("recheck of an agent's read: %+v", d)
	}
	if d := Recheck([]chat.Rule{neverSecrets}, reads, ro(subject("read_file", `{"path":"secrets/k"}`, "path")), 0); d.Verdict != Deny {
		t.Errorf("recheck under a never rule: %+v", d)
	}
	if d := Recheck([]chat.Rule{global}, ask, docs, 0); d.Verdict != Ask {
		t.Errorf("recheck of a careful agent's call by a rule for every chat: %+v", d)
	}
}
