package facade

import (
	"testing"

	"airlock/backend/chat"
)

// What Auto knows, in the Tools menu, is about the chat's own provider and
// model, not the active provider's: a chat on a model Auto learned is text
// says text while the active provider's model is untried, and an override
// set from that chat lands on its model.
func TestModelModeFollowsTheChatsModel(t *testing.T) {
	a := testApp(t)
	local, err := a.SaveProvider(chat.Provider{Name: "local", BaseURL: "http://127.0.0.1:9/v1", Model: "qwen"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := a.CreateChatWith("")
	if err != nil {
		t.Fatal(err)
	}
	if c, err = a.SetChatModel(c.ID, local.ID, "gemma-refuses"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.store.LearnModelMode(a.ctx, local.ID, "gemma-refuses", chat.ToolModeText, "HTTP 400: does not support tools"); err != nil {
		t.Fatal(err)
	}
	st, _ := a.store.GetSettings(a.ctx)
	if st.ActiveProviderID == local.ID {
		t.Fatal("the test needs another provider active")
	}
	info, err := a.ModelMode(c.ID, "", "")
	if err != nil || info.ProviderID != local.ID || info.Model != "gemma-refuses" || info.Effective != chat.ToolModeText {
		t.Fatalf("the chat's model: %+v, %v", info, err)
	}
	// With no chat, the provider and model given (a chat not created yet).
	if info, err = a.ModelMode("", local.ID, "gemma-refuses"); err != nil || info.Learned != chat.ToolModeText {
		t.Fatalf("given model: %+v, %v", info, err)
	}
	if info, err = a.SetModelMode(c.ID, "", "", "native", false); err != nil || info.Model != "gemma-refuses" || info.Effective != chat.ToolModeNative {
		t.Fatalf("override from the chat: %+v, %v", info, err)
	}
	if m, _ := a.store.GetModelMode(a.ctx, local.ID, "gemma-refuses"); m.Override != chat.ToolModeNative {
		t.Errorf("the override did not land on the chat's model: %+v", m)
	}
	if _, err := a.ModelMode("no-such-chat", "", ""); err == nil {
		t.Error("an unknown chat read some model's mode")
	}
}
