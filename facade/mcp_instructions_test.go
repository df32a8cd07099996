package facade

import (
	"context"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/store"
	"airlock/backend/tools/mcp"
)

// A server's instructions show in its row and reach the engine while on;
// turned off they don't, and the choice survives a restart and a rename.
func TestMCPInstructionsSwitch(t *testing.T) {
	bin := testServer(t)
	dir := t.TempDir()
	st, err := store.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	a := NewApp(st, dir, "", nil, nil)
	a.ctx = context.Background()
	if _, err := a.SaveMCPServer("", mcp.ServerConfig{Name: "local", Enabled: true, Command: bin}); err != nil {
		t.Fatal(err)
	}
	row := waitState(t, a, "local", mcp.StateReady)
	if row.Instructions != "Use echo to repeat things." || !row.InstructionsOn {
		t.Fatalf("row = %+v", row)
	}
	if got := a.chatInstructions(a.ctx, chat.Chat{}); len(got) != 1 || got[0].Server != "local" {
		t.Fatalf("instructions given to the engine: %+v", got)
	}
	list, err := a.SetMCPInstructions("local", false)
	if err != nil || list.Servers[0].InstructionsOn {
		t.Fatalf("turning off: %v %+v", err, list)
	}
	if got := a.chatInstructions(a.ctx, chat.Chat{}); len(got) != 0 {
		t.Fatalf("off, the engine still gets %+v", got)
	}
	if _, err := a.SetMCPInstructions("nobody", false); err == nil {
		t.Error("an unknown server was accepted")
	}
	a.shutdown(a.ctx)

	// Restarted: still off. Renamed: the choice follows the server.
	b := NewApp(st, dir, "", nil, nil)
	b.ctx = context.Background()
	t.Cleanup(func() { b.shutdown(b.ctx); st.Close() })
	if err := b.configureMCP(b.ctx); err != nil {
		t.Fatal(err)
	}
	if row := waitState(t, b, "local", mcp.StateReady); row.InstructionsOn {
		t.Fatal("after a restart the instructions are on again")
	}
	cfg := waitState(t, b, "local", mcp.StateReady).Config
	cfg.Name = "renamed"
	if _, err := b.SaveMCPServer("local", cfg); err != nil {
		t.Fatal(err)
	}
	if row := waitState(t, b, "renamed", mcp.StateReady); row.InstructionsOn {
		t.Fatal("the rename turned the instructions back on")
	}
	if off := b.instructionsOff(b.ctx); off["local"] {
		t.Errorf("the old name is still kept: %v", off)
	}
}
