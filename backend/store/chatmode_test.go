package store

import (
	"context"
	"testing"

	"airlock/backend/chat"
)

// Before 0020 an agent's tool mode and call format were copied into a chat
// when it was picked: a chat whose values differ from its agent's chose
// them itself and keeps them; the others follow the agent from now on.
func TestChatModeMigrationKeepsWhatAChatChose(t *testing.T) {
	path := oldDatabase(t, 18,
		"INSERT INTO chats (id, title, created_at, updated_at, agent_id, tool_mode, paradigm) VALUES ('same', 's', 1, 1, 'default', 'auto', 'json')",
		"INSERT INTO chats (id, title, created_at, updated_at, agent_id, tool_mode, paradigm) VALUES ('own', 'o', 1, 1, 'default', 'text', 'xml')",
		"INSERT INTO chats (id, title, created_at, updated_at, agent_id, tool_mode, paradigm) VALUES ('gone', 'g', 1, 1, 'deleted-agent', 'native', 'json')",
	)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for id, want := range map[string][2]bool{"same": {false, false}, "own": {true, true}, "gone": {true, false}} {
		c, err := s.GetChat(ctx, id)
		if err != nil || c.ToolModeOwn != want[0] || c.ParadigmOwn != want[1] {
			t.Errorf("%s: own mode %v, own format %v (%v); want %v", id, c.ToolModeOwn, c.ParadigmOwn, err, want)
		}
	}
	// A chat that follows reads the agent as it is now.
	editDefault := func(mode chat.ToolMode, par string) {
		a, _ := s.GetAgent(ctx, chat.DefaultAgentID)
		a.ToolMode, a.Paradigm = mode, par
		if _, err := s.SaveAgent(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	editDefault(chat.ToolModeNative, "vcp")
	if c, _ := s.GetChat(ctx, "same"); c.ToolMode != chat.ToolModeNative || c.Paradigm != "vcp" {
		t.Errorf("a following chat reads %s/%s after the agent's edit", c.ToolMode, c.Paradigm)
	}
	if c, _ := s.GetChat(ctx, "own"); c.ToolMode != chat.ToolModeText || c.Paradigm != "xml" {
		t.Errorf("a chat's own choice gave way to the agent: %s/%s", c.ToolMode, c.Paradigm)
	}
}

// In Chat options, a value other than the agent's is the chat's own; the
// agent's value makes it follow again; picking an agent follows it; the
// chats list reads the same as one chat.
func TestChatModeOwnAndFollow(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	a, err := s.SaveAgent(ctx, chat.Agent{Name: "A", ToolMode: chat.ToolModeAuto, Paradigm: "json"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.NewChat(ctx, "c", a.ID)
	if err != nil || c.ToolModeOwn || c.ParadigmOwn || c.ToolMode != chat.ToolModeAuto {
		t.Fatalf("new chat = %+v, %v", c, err)
	}
	o := c.ChatOptions
	o.ToolMode, o.Paradigm = chat.ToolModeText, "json"
	if c, err = s.SetChatOptions(ctx, c.ID, o); err != nil || !c.ToolModeOwn || c.ParadigmOwn {
		t.Fatalf("own text mode: %+v, %v", c, err)
	}
	a.Paradigm = "xml"
	if _, err := s.SaveAgent(ctx, a); err != nil {
		t.Fatal(err)
	}
	list, _ := s.ListChats(ctx)
	if len(list) != 1 || list[0].Paradigm != "xml" || list[0].ToolMode != chat.ToolModeText {
		t.Errorf("listed: %+v", list)
	}
	o.ToolMode, o.Paradigm = chat.ToolModeAuto, "xml" // the agent's values: follow it again
	if c, err = s.SetChatOptions(ctx, c.ID, o); err != nil || c.ToolModeOwn || c.ParadigmOwn {
		t.Fatalf("back to the agent's: %+v, %v", c, err)
	}
	o.ToolMode = chat.ToolModeNative
	if c, err = s.SetChatOptions(ctx, c.ID, o); err != nil || !c.ToolModeOwn {
		t.Fatal(err)
	}
	if c, err = s.SetChatAgent(ctx, c.ID, a.ID); err != nil || c.ToolModeOwn || c.ToolMode != chat.ToolModeAuto {
		t.Errorf("after picking the agent: %+v, %v", c, err)
	}
}
