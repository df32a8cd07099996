package chat

import (
	"testing"

	"airlock/backend/uitext"
)

// An agent the editor cannot save says why in a coded sentence.
func TestAgentRefusalsAreCoded(t *testing.T) {
	ok := Agent{Name: "a", MaxTurns: 10, ToolTimeoutSeconds: 60, ToolMode: "auto", Approval: ApprovalModes[0], Paradigm: "json", WorkspaceKind: "scratch"}
	if err := ok.Check(); err != nil {
		t.Fatalf("a good agent refused: %v", err)
	}
	for code, bad := range map[string]func(a *Agent){
		"agent_name":             func(a *Agent) { a.Name = "" },
		"agent_turns":            func(a *Agent) { a.MaxTurns = 0 },
		"agent_paradigm":         func(a *Agent) { a.Paradigm = "yaml" },
		"workspace_needs_folder": func(a *Agent) { a.WorkspaceKind = "folder" },
	} {
		a := ok
		bad(&a)
		err := a.Check()
		if tx, whole := uitext.Whole(err); !whole || tx.Code != code {
			t.Errorf("%s: %v → %+v", code, err, tx)
		}
	}
}
