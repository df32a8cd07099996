package mcp

import (
	"context"
	"testing"
	"time"

	"airlock/backend/uitext"
)

// A command that does not exist fails with its reason coded for the UI.
func TestMissingCommandReasonIsCoded(t *testing.T) {
	m := NewManager(Options{InitTimeout: 5 * time.Second})
	t.Cleanup(func() { m.Close() })
	if err := m.Configure([]ServerConfig{{Name: "missing", Command: "/nonexistent/mcp-server", Enabled: true}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = m.Wait(ctx)
	st, _ := m.ServerStatus("missing")
	rt := st.ReasonText
	if st.State != StateFailed || rt == nil || rt.English != st.Reason {
		t.Fatalf("status %q, text %+v", st.Reason, rt)
	}
	t.Logf("%q %+v", st.Reason, rt)
	// Wherever the SDK's words wrap it, the start failure itself is coded.
	found := false
	var walk func(tx uitext.Text)
	walk = func(tx uitext.Text) {
		if tx.Code == "mcp_cannot_start" {
			found = tx.Params["reason"].(uitext.Text).Code == "os_no_such_file"
		}
		for _, p := range tx.Params {
			if inner, ok := p.(uitext.Text); ok {
				walk(inner)
			}
		}
	}
	walk(*rt)
	if !found {
		t.Fatalf("not coded down to the cause: %+v", rt)
	}
}
