package export

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"airlock/backend/chat"
)

// A chat's export carries its agent by value: imported where that agent is
// unknown, the chat comes back with the agent (no provider), and importing
// again reuses it.
func TestChatExportCarriesItsAgent(t *testing.T) {
	ctx := context.Background()
	src := newStore(t)
	p, err := src.SaveProvider(ctx, chat.Provider{Name: "Mine", BaseURL: "https://api.example.com", APIKey: "sk-SECRET-9", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	ag, err := src.SaveAgent(ctx, chat.Agent{Name: "Translator", SystemPrompt: "Translate to Portuguese.", ProviderID: p.ID, Model: "m",
		Tools: chat.ToolChoice{Toggles: map[string]bool{"calculator": true}}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := src.NewChat(ctx, "t", ag.ID)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(ctx, src, []string{c.ID})
	if err != nil {
		t.Fatal(err)
	}
	data := write(t, b, "json")
	if bytes.Contains(data, []byte("sk-SECRET")) || bytes.Contains(data, []byte(p.ID)) {
		t.Fatal("the export holds the provider or its key")
	}
	dst := newStore(t)
	for round := 0; round < 2; round++ {
		read, _, err := Read(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Import(ctx, dst, read); err != nil {
			t.Fatal(err)
		}
	}
	got, err := dst.GetChat(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	a, err := dst.GetAgent(ctx, got.AgentID)
	if err != nil || a.Name != "Translator" || a.SystemPrompt != "Translate to Portuguese." || a.ProviderID != "" || !a.Tools.Toggles["calculator"] {
		t.Fatalf("imported agent = %+v, %v", a, err)
	}
	all, _ := dst.ListAgents(ctx)
	n := 0
	for _, x := range all {
		if x.Name == "Translator" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d Translator agents after importing twice", n)
	}
}

// A file of agents round-trips without providers; a file of something
// else is refused with the reason.
func TestAgentsFile(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteAgents(&buf, []chat.Agent{{ID: "x", Name: "A", ProviderID: "p1", Model: "m", BuiltIn: true, Approval: chat.ApprovalAsk}}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "p1") {
		t.Fatalf("the file names the provider: %s", buf.String())
	}
	as, err := ReadAgents(&buf)
	if err != nil || len(as) != 1 || as[0].Name != "A" || as[0].BuiltIn || as[0].ID != "" {
		t.Fatalf("read = %+v, %v", as, err)
	}
	if as[0].Approval != chat.ApprovalAsk { // the approval default travels with the agent
		t.Errorf("approval after the round trip: %q", as[0].Approval)
	}
	for _, bad := range []string{``, `[]`, `{"format":"airlock-export","version":1}`, `{"format":"airlock-agents","version":9,"agents":[{}]}`, `{"format":"airlock-agents","version":1,"agents":[]}`} {
		if _, err := ReadAgents(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "cannot import") {
			t.Errorf("ReadAgents(%q) = %v", bad, err)
		}
	}
}
