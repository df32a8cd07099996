package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"airlock/backend/approval"
	"airlock/backend/chat"
	"airlock/backend/store"
	"airlock/backend/tools"
)

// trail waits until a call has n audit rows and returns them, oldest first.
func (l *loopEnv) trail(callID string, n int) []chat.AuditEntry {
	l.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		var rows []chat.AuditEntry
		_ = l.st.EachAudit(context.Background(), store.AuditQuery{CallID: callID}, func(e chat.AuditEntry) error {
			rows = append(rows, e)
			return nil
		})
		if len(rows) >= n {
			return rows
		}
		if time.Now().After(deadline) {
			l.t.Fatalf("call %s has %d audit rows, want %d: %+v", callID, len(rows), n, rows)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// row checks one audit row.
func row(t *testing.T, e chat.AuditEntry, decision chat.AuditDecision, by string, status chat.ToolStatus) {
	t.Helper()
	if e.Decision != decision || e.DecidedBy != by || e.ResultStatus != status || e.At == 0 || e.ChatID == "" || e.Tool == "" {
		t.Errorf("audit row: %+v; want %s by %s, status %q", e, decision, by, status)
	}
}

func addRule(t *testing.T, st *store.Store, r chat.Rule) chat.Rule {
	t.Helper()
	r, err := st.AddRule(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestAuditOfAPersonsDecisions(t *testing.T) {
	l := newLoop(t, "", "json", written(t, "json", tc("a", "echo", `{"text":"1"}`), tc("b", "add", `{"a":1,"b":2}`), tc("c", "echo", `{"text":"3"}`)), "ok")
	ctx := context.Background()
	l.send("go")
	calls := l.waitCalls("cards", count(3))
	_, _ = l.eng.Approve(ctx, calls[0].ID, nil)
	_, _ = l.eng.Approve(ctx, calls[1].ID, json.RawMessage(`{"a":40,"b":2}`))
	_, _ = l.eng.Deny(ctx, calls[2].ID, "not now")

	plain := l.trail(calls[0].ID, 2)
	row(t, plain[0], chat.AuditApproved, chat.ByUser, "")
	row(t, plain[1], chat.AuditRan, chat.ByUser, chat.ToolSuccess)
	if string(plain[0].RunArguments) != `{"text":"1"}` || plain[1].DurationMs < 0 {
		t.Errorf("as run: %+v", plain)
	}
	edited := l.trail(calls[1].ID, 2)
	row(t, edited[0], chat.AuditEdited, chat.ByUser, "")
	if string(edited[0].Arguments) != `{"a":1,"b":2}` || string(edited[0].RunArguments) != `{"a":40,"b":2}` {
		t.Errorf("proposed and run: %s / %s", edited[0].Arguments, edited[0].RunArguments)
	}
	row(t, edited[1], chat.AuditRan, chat.ByUser, chat.ToolSuccess)
	denied := l.trail(calls[2].ID, 1)
	row(t, denied[0], chat.AuditDenied, chat.ByUser, chat.ToolDenied)
	if denied[0].Detail != "not now" || denied[0].RunArguments != nil {
		t.Errorf("denied: %+v", denied[0])
	}
}

// An allow rule runs a call, a never rule denies one with its message; both
// are credited and recorded with the rule as it read.
func TestAuditOfRules(t *testing.T) {
	l := newLoop(t, "", "json", written(t, "json", tc("a", "echo", `{"text":"1"}`), tc("b", "add", `{"a":1,"b":2}`)), "ok")
	ctx := context.Background()
	allow := allowAlways(t, l.st, "echo")
	never := addRule(t, l.st, chat.Rule{Effect: chat.RuleDeny, Tool: "add", Match: chat.RuleMatch{Kind: chat.MatchAny}, Scope: chat.ScopeAlways,
		Message: "No maths today."})
	l.send("go")
	reqs := l.waitRequests(2)
	if got := lastContent(reqs[1]); !strings.Contains(got, "echo: 1") || !strings.Contains(got, "No maths today.") {
		t.Fatalf("the model got: %s", got)
	}
	calls, _ := l.st.ListCalls(ctx, l.chat.ID)
	ran := l.trail(calls[0].ID, 2)
	row(t, ran[0], chat.AuditApproved, allow.By(), "")
	row(t, ran[1], chat.AuditRan, allow.By(), chat.ToolSuccess)
	if ran[0].RuleID != allow.ID || !strings.Contains(ran[0].Rule, "allow echo for any arguments") {
		t.Errorf("rule in the row: %+v", ran[0])
	}
	denied := l.trail(calls[1].ID, 1)
	row(t, denied[0], chat.AuditDenied, never.By(), chat.ToolDenied)
	if denied[0].Detail != "No maths today." || !strings.Contains(denied[0].Rule, "never allow add") {
		t.Errorf("never rule row: %+v", denied[0])
	}
	if calls[1].State != chat.CallDenied || calls[1].DecidedBy != never.By() {
		t.Errorf("denied card: %+v", calls[1])
	}
	for _, r := range []chat.Rule{allow, never} {
		if got, _ := l.st.GetRule(ctx, r.ID); got.Uses != 1 || got.LastUsedAt == 0 {
			t.Errorf("rule %d uses: %+v", r.ID, got)
		}
	}
}

func TestAuditOfTheLoopGuard(t *testing.T) {
	same := written(t, "json", tc("x", "echo", `{"text":"again"}`))
	l := newLoop(t, "", "json", same, same, same, "ok")
	ctx := context.Background()
	r := allowAlways(t, l.st, "echo")
	l.send("loop")
	calls := l.waitCalls("third call", func(cs []chat.Call) bool { return len(cs) == 3 && cs[2].Guard != "" })
	held := l.trail(calls[2].ID, 1)
	row(t, held[0], chat.AuditHeld, chat.ByLoopGuard, "")
	if held[0].RuleID != r.ID || !strings.Contains(held[0].Detail, "Loop guard") {
		t.Errorf("held: %+v", held[0])
	}
	if _, err := l.eng.Approve(ctx, calls[2].ID, nil); err != nil {
		t.Fatal(err)
	}
	after := l.trail(calls[2].ID, 3)
	row(t, after[1], chat.AuditApproved, chat.ByUser, "")
	if !strings.Contains(after[1].Detail, "Loop guard") {
		t.Errorf("a person ran what the guard held: %+v", after[1])
	}
}

// Past the turn cap (after Continue), a rule no longer runs calls.
func TestAuditOfTheTurnCap(t *testing.T) {
	l := newLoop(t, "", "json", written(t, "json", tc("1", "echo", `{"text":"a"}`)), written(t, "json", tc("2", "echo", `{"text":"b"}`)), "end")
	ctx := context.Background()
	editAgent(t, l.st, chat.DefaultAgentID, func(a *chat.Agent) { a.MaxTurns = 1 })
	r := allowAlways(t, l.st, "echo")
	l.send("go")
	select {
	case n := <-l.notes:
		if n.Code != "turn_cap" {
			t.Fatalf("notice: %+v", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no turn-cap notice")
	}
	if _, err := l.eng.Continue(ctx, l.chat.ID); err != nil {
		t.Fatal(err)
	}
	calls := l.waitCalls("second answer's call", func(cs []chat.Call) bool { return len(cs) == 2 && cs[1].Guard != "" })
	if calls[0].State != chat.CallDone || calls[1].State != chat.CallPending || !strings.Contains(calls[1].Guard, "Turn cap") {
		t.Fatalf("calls: %+v", calls)
	}
	held := l.trail(calls[1].ID, 1)
	row(t, held[0], chat.AuditHeld, chat.ByTurnCap, "")
	if held[0].RuleID != r.ID {
		t.Errorf("held: %+v", held[0])
	}
}

func TestAuditOfSupersededAndProblemCards(t *testing.T) {
	problem := "```json\n{\"tool_calls\":[{\"id\":\"p1\",\"name\":\"teleport\",\"arguments\":{\"to\":\"mars\"}}]}\n```"
	l := newLoop(t, "", "json", written(t, "json", tc("a", "echo", `{"text":"1"}`))+"\n\n"+problem, "plain")
	l.send("first")
	calls := l.waitCalls("cards", count(2))
	l.send("never mind")
	for _, c := range calls {
		rows := l.trail(c.ID, 1)
		status := chat.ToolDenied
		if c.State == chat.CallProblem {
			status = chat.ToolError
		}
		row(t, rows[0], chat.AuditSuperseded, chat.ByNewMessage, status)
	}

	l2 := newLoop(t, "", "json", problem, "sorry")
	l2.send("go")
	p := l2.waitCalls("problem", count(1))[0]
	if _, err := l2.eng.TellModel(context.Background(), p.ID); err != nil {
		t.Fatal(err)
	}
	told := l2.trail(p.ID, 1)
	row(t, told[0], chat.AuditToldModel, chat.ByUser, chat.ToolError)
	if !strings.Contains(told[0].Detail, "teleport") {
		t.Errorf("told: %+v", told[0])
	}
}

// Fix and run: the row keeps the call as the model wrote it and as it ran,
// and the model is told what the user changed.
func TestAuditOfFixAndRun(t *testing.T) {
	l := newLoop(t, "", "json", "```json\n{\"tool_calls\":[{\"id\":\"p1\",\"name\":\"ech\",\"arguments\":{\"text\":1}}]}\n```", "ok")
	l.send("go")
	p := l.waitCalls("problem", count(1))[0]
	if _, err := l.eng.FixAndRun(context.Background(), p.ID, "echo", json.RawMessage(`{"text":"fixed"}`)); err != nil {
		t.Fatal(err)
	}
	rows := l.trail(p.ID, 2)
	row(t, rows[0], chat.AuditFixed, chat.ByUser, "")
	row(t, rows[1], chat.AuditRan, chat.ByUser, chat.ToolSuccess)
	if string(rows[0].Arguments) != `{"text":1}` || string(rows[0].RunArguments) != `{"text":"fixed"}` || rows[0].Detail == "" {
		t.Errorf("fixed row: %+v", rows[0])
	}
	got := lastContent(l.waitRequests(2)[1])
	if !strings.Contains(got, `The user fixed this call before running it; it ran as echo with {\"text\":\"fixed\"}. Changes: text 1 → \"fixed\".`) ||
		!strings.Contains(got, "echo: fixed") {
		t.Errorf("the model got: %s", got)
	}
}

func TestAuditOfRunOutcomes(t *testing.T) {
	l := newLoop(t, "", "json", written(t, "json", tc("s1", "sleep", `{}`), tc("s2", "sleep", `{}`)), "ok")
	ctx := context.Background()
	editAgent(t, l.st, chat.DefaultAgentID, func(a *chat.Agent) { a.ToolTimeoutSeconds = 1 })
	l.send("sleep")
	calls := l.waitCalls("cards", count(2))
	_ = l.eng.RunAll(ctx, calls[0].MessageID)
	l.waitCalls("running", func(cs []chat.Call) bool { return cs[1].State == chat.CallRunning })
	l.eng.Cancel(calls[1].ID)
	timedOut := l.trail(calls[0].ID, 2)
	row(t, timedOut[1], chat.AuditTimedOut, chat.ByTimeout, chat.ToolError)
	if timedOut[1].DurationMs < 900 || !strings.Contains(timedOut[1].Detail, "timed out") {
		t.Errorf("timed out: %+v", timedOut[1])
	}
	cancelled := l.trail(calls[1].ID, 2)
	row(t, cancelled[1], chat.AuditCancelled, chat.ByUser, chat.ToolError)

	l2 := newLoop(t, "", "json", written(t, "json", tc("s", "sleep", `{}`)))
	l2.send("sleep")
	c := l2.waitCalls("card", count(1))[0]
	_, _ = l2.eng.Approve(ctx, c.ID, nil)
	l2.waitCalls("running", func(cs []chat.Call) bool { return cs[0].State == chat.CallRunning })
	l2.eng.Shutdown()
	stopped := l2.trail(c.ID, 2)
	row(t, stopped[1], chat.AuditInterrupted, chat.ByInterrupted, "")
}

func TestAuditOfTheToolLab(t *testing.T) {
	l := newLoop(t, "", "json")
	ctx := context.Background()
	if _, err := l.eng.RunByHand(ctx, l.chat.ID, "echo", json.RawMessage(`{"text":"hi"}`)); err != nil {
		t.Fatal(err)
	}
	rows, _ := l.st.ListAudit(ctx, store.AuditQuery{ChatID: l.chat.ID})
	if len(rows) != 1 {
		t.Fatalf("rows: %+v", rows)
	}
	row(t, rows[0], chat.AuditRan, chat.ByUser, chat.ToolSuccess)
	if rows[0].CallID != "" || !strings.Contains(rows[0].Detail, "Tool lab") || string(rows[0].RunArguments) != `{"text":"hi"}` {
		t.Errorf("tool lab row: %+v", rows[0])
	}
}

// peekTools adds a tool with a workspace path, for rules on folders.
func peekTools(t *testing.T) *tools.Toolbox {
	box := testTools(t)
	peek := tools.Tool{Spec: tools.Spec{Name: "peek", Description: "Peek at a path.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
		PathArgs: []string{"path"},
		Run: tools.TextRun(func(_ context.Context, _ tools.Env, a json.RawMessage) (string, error) {
			return "peeked " + string(a), nil
		})}
	all, err := tools.NewToolbox(append(box.Tools(), peek)...)
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// A rule made from a card applies to the card and the waiting calls of its
// answer that it covers; a "call" rule holds for that answer only; a
// never rule made from a card denies with its message; a draft is tested
// on the chat's calls first.
func TestRulesFromACard(t *testing.T) {
	l := newLoopWith(t, "", "json", peekTools(t),
		written(t, "json", tc("1", "peek", `{"path":"docs/a"}`), tc("2", "peek", `{"path":"docs/b"}`), tc("3", "peek", `{"path":"docs/../secrets/c"}`),
			tc("4", "echo", `{"text":"e"}`)),
		written(t, "json", tc("5", "peek", `{"path":"docs/z"}`)), "done")
	ctx := context.Background()
	l.send("peek")
	calls := l.waitCalls("cards", count(4))
	r, card, err := l.eng.AddRuleFromCall(ctx, calls[0].ID, approval.Draft{Match: chat.MatchPath, Scope: chat.ScopeCall})
	if err != nil {
		t.Fatal(err)
	}
	if r.Match.Path != "docs" || r.Scope != chat.ScopeCall || r.MessageID != calls[0].MessageID || card.DecidedBy != r.By() {
		t.Fatalf("rule %+v, card %+v", r, card)
	}
	calls = l.waitCalls("docs/a and docs/b ran", func(cs []chat.Call) bool { return cs[0].State == chat.CallDone && cs[1].State == chat.CallDone })
	if calls[2].State != chat.CallPending || calls[3].State != chat.CallPending {
		t.Fatalf("the rule covered more than docs: %s %s", calls[2].State, calls[3].State)
	}
	if got, _ := l.st.GetRule(ctx, r.ID); got.Uses != 2 {
		t.Errorf("uses: %+v", got)
	}
	row(t, l.trail(calls[1].ID, 1)[0], chat.AuditApproved, r.By(), "")

	never := approval.Draft{Effect: chat.RuleDeny, Match: chat.MatchPath, Scope: chat.ScopeChat, Message: "Keep out of secrets."}
	tried, matched, total, err := l.eng.TestRule(ctx, calls[2].ID, never, "")
	if err != nil || tried.Match.Path != "secrets" || total != 4 || len(matched) != 1 || matched[0].ID != calls[2].ID {
		t.Fatalf("TestRule: %+v %+v %d %v", tried, matched, total, err)
	}
	if rs, _ := l.st.ListRules(ctx); len(rs) != 1 {
		t.Fatalf("testing a rule saved it: %+v", rs)
	}
	nr, denied, err := l.eng.AddRuleFromCall(ctx, calls[2].ID, never)
	if err != nil || denied.State != chat.CallDenied || denied.DecidedBy != nr.By() || !strings.Contains(denied.Result, "Keep out of secrets.") {
		t.Fatalf("never rule from a card: %+v %v", denied, err)
	}
	if _, err := l.eng.Approve(ctx, calls[3].ID, nil); err != nil {
		t.Fatal(err)
	}
	// The next answer's docs/z waits: the first rule held for one answer.
	calls = l.waitCalls("the next answer", count(5))
	time.Sleep(30 * time.Millisecond)
	if c, _ := l.st.GetCall(ctx, calls[4].ID); c.State != chat.CallPending {
		t.Fatalf("a rule for one answer ran a later call: %+v", c)
	}
	if _, _, err := l.eng.AddRuleFromCall(ctx, calls[4].ID, approval.Draft{Match: chat.MatchPath, Path: "../x", Scope: chat.ScopeChat}); err == nil {
		t.Fatal("a folder outside the workspace was accepted")
	}
}

func TestAlwaysAllowEverywhere(t *testing.T) {
	l := newLoop(t, "", "json", written(t, "json", tc("1", "echo", `{"text":"a"}`)), "ok")
	l.send("go")
	c := l.waitCalls("card", count(1))[0]
	if _, err := l.eng.AlwaysAllow(context.Background(), c.ID, true); err != nil {
		t.Fatal(err)
	}
	rs, _ := l.st.ListRules(context.Background())
	if len(rs) != 1 || rs[0].Scope != chat.ScopeAlways || rs[0].ChatID != "" || rs[0].Tool != "echo" {
		t.Fatalf("rules: %+v", rs)
	}
	row(t, l.trail(c.ID, 2)[1], chat.AuditRan, rs[0].By(), chat.ToolSuccess)
}

// A call the message ended without its closers becomes a card marked
// repaired: a rule that allows the tool holds it for a person, and the
// trail says it was repaired, when held and when a person runs it.
func TestRepairedCallWaitsForAPerson(t *testing.T) {
	l := newLoop(t, "", "json", `{"name": "echo", "arguments": {"text": "hi"}`, "ok")
	ctx := context.Background()
	allowAlways(t, l.st, "echo")
	l.send("go")
	calls := l.waitCalls("held", func(cs []chat.Call) bool { return len(cs) == 1 && cs[0].Guard != "" })
	if !calls[0].Repaired || calls[0].State != chat.CallPending || !strings.Contains(calls[0].Guard, "Repaired") {
		t.Fatalf("card: %+v", calls[0])
	}
	held := l.trail(calls[0].ID, 1)
	row(t, held[0], chat.AuditHeld, chat.ByRepaired, "")
	if !strings.Contains(held[0].Detail, RepairedDetail) {
		t.Errorf("held row: %+v", held[0])
	}
	if _, err := l.eng.Approve(ctx, calls[0].ID, nil); err != nil {
		t.Fatal(err)
	}
	after := l.trail(calls[0].ID, 2)
	row(t, after[1], chat.AuditApproved, chat.ByUser, "")
	if !strings.Contains(after[1].Detail, RepairedDetail) {
		t.Errorf("approved row: %+v", after[1])
	}
}

// A rule for every chat is tested on every chat's calls, not only the one
// it is made from (issue 30, item 15).
func TestTestOfAnEverywhereRuleLooksAtEveryChat(t *testing.T) {
	l := newLoopWith(t, "", "json", peekTools(t), written(t, "json", tc("1", "peek", `{"path":"docs/a"}`)), "done")
	ctx := context.Background()
	l.send("peek")
	calls := l.waitCalls("a card", count(1))
	other, _ := l.st.CreateChat(ctx, "elsewhere")
	m, err := l.st.AddMessage(ctx, chat.Message{ChatID: other.ID, Role: chat.RoleAssistant, Kind: chat.KindText, Content: "x", Status: chat.StatusComplete})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.st.AddCalls(ctx, []chat.Call{
		{ChatID: other.ID, MessageID: m.ID, Name: "peek", Arguments: json.RawMessage(`{"path":"docs/b"}`), State: chat.CallDone},
		{ChatID: other.ID, MessageID: m.ID, Index: 1, Name: "echo", Arguments: json.RawMessage(`{"text":"e"}`), State: chat.CallDone},
	}); err != nil {
		t.Fatal(err)
	}
	everywhere := approval.Draft{Match: chat.MatchPath, Scope: chat.ScopeAlways}
	_, matched, total, err := l.eng.TestRule(ctx, calls[0].ID, everywhere, "")
	if err != nil || total != 3 || len(matched) != 2 {
		t.Fatalf("every chat: %d of %d (%v)", len(matched), total, err)
	}
	thisChat := approval.Draft{Match: chat.MatchPath, Scope: chat.ScopeChat}
	if _, matched, total, _ := l.eng.TestRule(ctx, calls[0].ID, thisChat, ""); total != 1 || len(matched) != 1 {
		t.Fatalf("this chat: %d of %d", len(matched), total)
	}
}
