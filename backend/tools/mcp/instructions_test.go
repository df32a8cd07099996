package mcp

import (
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The server's instructions are kept for the status, credentials masked,
// and cut at MaxInstructionsBytes with a note naming the cap.
func TestServerInstructions(t *testing.T) {
	ts := &testServer{srv: sdk.NewServer(&sdk.Implementation{Name: "notes", Version: "1"}, &sdk.ServerOptions{Instructions: "  Call echo first.  "})}
	m := startManager(t, ts, Options{})
	if st, _ := m.ServerStatus("test"); st.Instructions != "Call echo first." || st.InstructionsCut {
		t.Fatalf("status = %q cut=%v", st.Instructions, st.InstructionsCut)
	}

	long := strings.Repeat("é", MaxInstructionsBytes) // 2 bytes each
	got, cut := capInstructions(long)
	if !cut || !strings.HasSuffix(got, InstructionsCutNote) || len(got) > MaxInstructionsBytes+len(InstructionsCutNote)+1 || !strings.Contains(InstructionsCutNote, "8 KB") {
		t.Fatalf("cut=%v len=%d", cut, len(got))
	}
	if strings.ContainsRune(got, '\uFFFD') {
		t.Error("cut inside a character")
	}
}
