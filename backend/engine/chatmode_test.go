package engine

import (
	"context"
	"testing"

	"airlock/backend/chat"
)

// A chat's tool mode follows its agent at every turn: an edit of the agent
// changes the next request. A mode the chat chose itself in Chat options
// wins over the agent's, whatever the agent says later, until the chat
// picks an agent again.
func TestChatToolModeFollowsItsAgentUnlessItChoseItsOwn(t *testing.T) {
	l := newLoop(t, "", "json", "one", "two", "three", "four")
	ctx := context.Background()
	a, err := l.st.SaveAgent(ctx, chat.Agent{Name: "Switchable", ToolMode: chat.ToolModeText, Paradigm: "json", Tools: chat.ToolChoice{Default: true}})
	if err != nil {
		t.Fatal(err)
	}
	if l.chat, err = l.st.SetChatAgent(ctx, l.chat.ID, a.ID); err != nil {
		t.Fatal(err)
	}
	turn := func(n int) int {
		t.Helper()
		l.send("turn")
		<-l.ends
		return len(l.waitRequests(n)[n-1].Tools)
	}
	if got := turn(1); got != 0 {
		t.Fatalf("text mode sent %d native tools", got)
	}
	editAgent(t, l.st, a.ID, func(a *chat.Agent) { a.ToolMode = chat.ToolModeNative })
	if got := turn(2); got == 0 {
		t.Fatal("after the agent switched to native, the next request had no native tools")
	}
	// The chat chooses text for itself: the agent's native no longer applies.
	c, err := l.st.GetChat(ctx, l.chat.ID)
	if err != nil {
		t.Fatal(err)
	}
	o := c.ChatOptions
	o.ToolMode = chat.ToolModeText
	if c, err = l.st.SetChatOptions(ctx, c.ID, o); err != nil || !c.ToolModeOwn {
		t.Fatalf("chat's own mode: %+v, %v", c, err)
	}
	editAgent(t, l.st, a.ID, func(a *chat.Agent) { a.ToolMode = chat.ToolModeNative; a.SystemPrompt = "edited" })
	if got := turn(3); got != 0 {
		t.Fatalf("the chat chose text, yet the request carried %d native tools", got)
	}
	// Picking the agent again follows it again.
	if _, err := l.st.SetChatAgent(ctx, c.ID, a.ID); err != nil {
		t.Fatal(err)
	}
	if got := turn(4); got == 0 {
		t.Fatal("after picking the agent again, the chat did not follow its native mode")
	}
}
