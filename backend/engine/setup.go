package engine

import (
	"context"
	"sync"

	"airlock/backend/chat"
	"airlock/backend/llm"
	"airlock/backend/tools"
)

// A chat's setup: its agent, read at every turn (so editing an agent
// changes the next turns of its chats), decides the system prompt, the
// generation options, the tools offered, the turn cap, the tool timeout
// and whether approved calls run together or one at a time. The chat
// decides the provider and model (the Connector resolves them).

// agentOf is the chat's agent as it is now: the default one when the chat's
// is gone, the built-in defaults when even that cannot be read.
func (e *Engine) agentOf(ctx context.Context, c chat.Chat) chat.Agent {
	for _, id := range []string{c.AgentID, chat.DefaultAgentID} {
		if id == "" {
			continue
		}
		if a, err := e.store.GetAgent(ctx, id); err == nil {
			return a
		}
	}
	return chat.DefaultAgent()
}

// agentOfChat is agentOf by the chat's ID.
func (e *Engine) agentOfChat(ctx context.Context, chatID string) chat.Agent {
	c, err := e.store.GetChat(ctx, chatID)
	if err != nil {
		return e.agentOf(ctx, chat.Chat{})
	}
	return e.agentOf(ctx, c)
}

// Offered narrows a toolbox to the tools the agent and the chat's own
// toggles offer. What is left out is never shown to the model (text or
// native), and a call to it is an unknown tool.
func Offered(box *tools.Toolbox, a chat.Agent, toggles map[string]bool) *tools.Toolbox {
	var names []string
	for _, t := range box.Tools() {
		if a.Offers(t.Name, ReadOnlySafe(t), toggles) {
			names = append(names, t.Name)
		}
	}
	return box.Only(names)
}

// ReadOnlySafe says a tool cannot change anything: a built-in or file tool
// that does not write. An MCP server's tool acts outside Airlock, so it is
// never counted as safe.
func ReadOnlySafe(t tools.Tool) bool { return t.Kind != tools.KindMCP && !t.Changes }

// generation is what an agent asks of the model beyond the messages; nil or
// 0 leaves it to the provider (not sent).
type generation struct {
	temperature, topP *float32
	maxTokens         int
}

func generationOf(a chat.Agent) generation {
	var g generation
	if a.Temperature != nil {
		t := float32(*a.Temperature)
		g.temperature = &t
	}
	if a.TopP != nil {
		p := float32(*a.TopP)
		g.topP = &p
	}
	g.maxTokens = a.MaxOutputTokens
	return g
}

func (g generation) apply(req llm.Request) llm.Request {
	req.Temperature, req.TopP, req.MaxTokens = g.temperature, g.topP, g.maxTokens
	return req
}

// inOrder chains the runs of a chat whose agent runs calls one at a time:
// each approved call waits for the one approved before it to finish, so
// they run in the order they were approved (a message's own order for Run
// all and for rules).
type inOrder struct {
	mu   sync.Mutex
	last map[string]chan struct{} // by chat: closed when its latest run ends
}

// queued is a call's place in its chat's line; the zero value runs at once.
type queued struct {
	after <-chan struct{} // closed when the call before it ended
	done  chan struct{}   // closed when this call ended
}

// enqueue gives an approved call its place when the chat's agent runs calls
// one at a time. Callers hold e.decide, so places follow approvals.
func (e *Engine) enqueue(ctx context.Context, c chat.Call) queued {
	if !e.agentOfChat(ctx, c.ChatID).Sequential {
		return queued{}
	}
	e.order.mu.Lock()
	defer e.order.mu.Unlock()
	if e.order.last == nil {
		e.order.last = map[string]chan struct{}{}
	}
	q := queued{after: e.order.last[c.ChatID], done: make(chan struct{})}
	e.order.last[c.ChatID] = q.done
	return q
}

// wait blocks until the call before it ended; false when ctx ended first
// (the line still moves on: this call's end follows the one before).
func (q queued) wait(ctx context.Context) bool {
	if q.after == nil {
		return true
	}
	select {
	case <-q.after:
		return true
	case <-ctx.Done():
		return false
	}
}

// end lets the next call in line run (after the one before this, so the
// order holds even when this call was cancelled while it waited).
func (q queued) end() {
	if q.done == nil {
		return
	}
	if q.after == nil {
		close(q.done)
		return
	}
	go func() {
		<-q.after
		close(q.done)
	}()
}
