package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"airlock/backend/chat"
	"airlock/backend/tools"
	"airlock/backend/tools/files"
	"airlock/backend/workspace"
)

// useAgent gives the loop's chat a new agent with an approval default.
func (l *loopEnv) useAgent(mode chat.ApprovalMode) chat.Agent {
	l.t.Helper()
	ctx := context.Background()
	a, err := l.st.SaveAgent(ctx, chat.Agent{Name: "Agent " + string(mode), Approval: mode, ToolMode: chat.ToolModeText, Paradigm: "json",
		Tools: chat.ToolChoice{Default: true}})
	if err != nil {
		l.t.Fatal(err)
	}
	if l.chat, err = l.st.SetChatAgent(ctx, l.chat.ID, a.ID); err != nil {
		l.t.Fatal(err)
	}
	return a
}

// An agent that asks every time holds a call a rule for every chat allows:
// the card waits with why, and the trail says the agent decided (and which
// rule it set aside). A rule made for the chat still runs its tool.
func TestAgentAsksEveryTimeDespiteAGlobalRule(t *testing.T) {
	l := newLoop(t, "", "json", written(t, "json", tc("a", "echo", `{"text":"1"}`), tc("b", "add", `{"a":1,"b":2}`)), "ok")
	ctx := context.Background()
	global := allowAlways(t, l.st, "echo")
	here := addRule(t, l.st, chat.Rule{Effect: chat.RuleAllow, Tool: "add", Match: chat.RuleMatch{Kind: chat.MatchAny}, Scope: chat.ScopeChat, ChatID: l.chat.ID})
	a := l.useAgent(chat.ApprovalAsk)
	l.send("go")
	calls := l.waitCalls("add ran", func(cs []chat.Call) bool { return len(cs) == 2 && cs[1].State == chat.CallDone })
	echo := calls[0]
	if echo.State != chat.CallPending || !strings.Contains(echo.Guard, "Ask every time") || !strings.Contains(echo.Guard, a.Name) {
		t.Fatalf("echo = %s, guard %q; want it waiting with why", echo.State, echo.Guard)
	}
	held := l.trail(echo.ID, 1)
	row(t, held[0], chat.AuditHeld, a.By(), "")
	if held[0].RuleID != global.ID {
		t.Errorf("the held row names rule %d, want the global rule %d", held[0].RuleID, global.ID)
	}
	if calls[1].DecidedBy != here.By() {
		t.Errorf("add was decided by %q, want the chat's rule %q", calls[1].DecidedBy, here.By())
	}
	if got, _ := l.st.GetRule(ctx, global.ID); got.Uses != 0 {
		t.Errorf("the set-aside rule was credited with %d uses", got.Uses)
	}
}

// The same global rule runs the call in a chat whose agent lets your rules
// decide: the difference above is the agent's.
func TestAgentRulesModeLetsAGlobalRuleRun(t *testing.T) {
	l := newLoop(t, "", "json", written(t, "json", tc("a", "echo", `{"text":"1"}`)), "ok")
	global := allowAlways(t, l.st, "echo")
	l.useAgent(chat.ApprovalRules)
	l.send("go")
	c := l.waitCalls("ran", func(cs []chat.Call) bool { return len(cs) == 1 && cs[0].State == chat.CallDone })[0]
	if c.DecidedBy != global.By() {
		t.Fatalf("decided by %q, want %q", c.DecidedBy, global.By())
	}
}

// An agent whose default runs reads runs a read of a file in the
// workspace without asking, and the trail names the agent; a write, a
// path outside the workspace, and a read a never rule covers do not run.
func TestAgentReadsRunWithoutAsking(t *testing.T) {
	ws := workspace.NewScratch()
	if err := afero.WriteFile(ws.FS(), "/notes.txt", []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	box, err := tools.NewToolbox(files.Tools()...)
	if err != nil {
		t.Fatal(err)
	}
	l := newLoopWith(t, "", "json", box, written(t, "json",
		tc("r", "read_file", `{"path":"notes.txt"}`),
		tc("w", "write_file", `{"path":"new.txt","content":"x"}`),
		tc("o", "read_file", `{"path":"../etc/passwd"}`),
		tc("s", "read_file", `{"path":"secrets/key"}`)), "ok")
	l.eng.envFor = func(context.Context, string) (tools.Env, error) { return tools.Env{FS: ws.FS()}, nil }
	never := addRule(t, l.st, chat.Rule{Effect: chat.RuleDeny, Tool: "read_file", Match: chat.RuleMatch{Kind: chat.MatchPath, Path: "secrets"}, Scope: chat.ScopeAlways})
	a := l.useAgent(chat.ApprovalReads)
	l.send("go")
	calls := l.waitCalls("read ran", func(cs []chat.Call) bool { return len(cs) == 4 && cs[0].State == chat.CallDone })
	if calls[0].DecidedBy != a.By() || !strings.Contains(calls[0].Result, "hello") {
		t.Errorf("read: by %q, result %q", calls[0].DecidedBy, calls[0].Result)
	}
	ran := l.trail(calls[0].ID, 2)
	row(t, ran[0], chat.AuditApproved, a.By(), "")
	row(t, ran[1], chat.AuditRan, a.By(), chat.ToolSuccess)
	if !strings.Contains(ran[0].Rule, a.Name) || ran[0].RuleID != 0 {
		t.Errorf("the trail's rule text: %+v", ran[0])
	}
	for i, want := range []chat.CallState{chat.CallDone, chat.CallPending, chat.CallPending, chat.CallDenied} {
		if calls[i].State != want {
			t.Errorf("call %s (%s): %s, want %s", calls[i].ID, calls[i].Arguments, calls[i].State, want)
		}
	}
	if calls[3].DecidedBy != never.By() {
		t.Errorf("the read under secrets was decided by %q, want the never rule", calls[3].DecidedBy)
	}
}
