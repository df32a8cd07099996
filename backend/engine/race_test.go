package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/tools"
	"airlock/backend/tools/files"
	"airlock/backend/workspace"
)

// Calls of one answer are decided together but must not run on a decision
// the workspace has outgrown (issue 31, item 2): with "allow move_path" and
// "allow edit_file under docs", an answer that moves a link to a private
// folder into docs and then edits through it must never edit outside
// docs. Many rounds, as the race is a matter of scheduling.
func TestARuleIsCheckedAgainstTheWorkspaceAsItIsWhenTheCallRuns(t *testing.T) {
	const rounds = 40
	box, err := tools.NewToolbox(files.Tools()...)
	if err != nil {
		t.Fatal(err)
	}
	escapes, held := 0, 0
	for round := 0; round < rounds; round++ {
		dir := t.TempDir()
		ws := filepath.Join(dir, "ws")
		for _, d := range []string{"docs", "private", "a"} {
			if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		os.WriteFile(filepath.Join(ws, "private", "secret.txt"), []byte("SECRET"), 0o600)
		if err := os.Symlink("../private", filepath.Join(ws, "a", "lnk")); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		w, err := workspace.OpenFolder(ws)
		if err != nil {
			t.Fatal(err)
		}
		l := newLoopWith(t, dir, "json", box,
			written(t, "json", tc("1", "move_path", `{"source":"a/lnk","destination":"docs/lnk"}`),
				tc("2", "edit_file", `{"path":"docs/lnk/secret.txt","old_text":"SECRET","new_text":"edited through a link"}`),
				tc("3", "list_directory", `{"path":"docs"}`)), "done", "done")
		l.eng.envFor = func(context.Context, string) (tools.Env, error) {
			return tools.Env{FS: w.FS(), Resolve: w.Resolve}, nil
		}
		addRule(t, l.st, chat.Rule{Effect: chat.RuleAllow, Tool: "list_directory", Match: chat.RuleMatch{Kind: chat.MatchAny}, Scope: chat.ScopeAlways})
		addRule(t, l.st, chat.Rule{Effect: chat.RuleAllow, Tool: "move_path", Match: chat.RuleMatch{Kind: chat.MatchAny}, Scope: chat.ScopeAlways})
		addRule(t, l.st, chat.Rule{Effect: chat.RuleAllow, Tool: "edit_file", Match: chat.RuleMatch{Kind: chat.MatchPath, Path: "docs"}, Scope: chat.ScopeAlways})
		l.send("go")
		calls := l.waitCalls("both calls decided and run", func(cs []chat.Call) bool {
			return len(cs) == 3 && cs[0].Settled() && cs[2].Settled() && (cs[1].Settled() || cs[1].State == chat.CallPending)
		})
		if calls[1].State == chat.CallPending {
			held++
		}
		l.eng.Shutdown()
		if b, _ := os.ReadFile(filepath.Join(ws, "private", "secret.txt")); string(b) != "SECRET" {
			escapes++
		}
		w.Close()
	}
	t.Logf("%d rounds: %d writes outside docs, %d writes held for a person", rounds, escapes, held)
	if escapes != 0 {
		t.Errorf("a write allowed under docs changed private/secret.txt in %d of %d rounds", escapes, rounds)
	}
}
