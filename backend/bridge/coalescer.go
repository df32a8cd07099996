// Package bridge turns a model's token stream into UI events that a webview
// can keep up with: text deltas are coalesced (the first at once, then at
// most one event per interval), numbered, and terminal events are always sent.
package bridge

import (
	"strings"
	"sync"
	"time"

	"airlock/backend/chat"
	"airlock/backend/uitext"
)

// Event names the UI listens to.
const (
	EventDelta        = "stream:delta"
	EventEnd          = "stream:end"
	EventChatsChanged = "chats:changed"
	EventMessageAdded = "message:added" // payload chat.Message: a message the backend added (tool results, the next turn)
	EventCallUpdated  = "call:updated"  // payload chat.Call: a tool call was found or changed state
	EventNotice       = "chat:notice"   // payload Notice: something the user should know about a chat
	// EventWorkspaceChanged: a tool that may change files ran in a chat's
	// workspace (payload WorkspaceChanged).
	EventWorkspaceChanged = "workspace:changed"
	// EventCallsForming: the calls of a streaming answer as they are
	// written (payload Forming). Display only: the cards that can be
	// decided come as call:updated once the answer is complete.
	EventCallsForming = "calls:forming"
)

// Forming is what the model has written so far of the calls in an answer.
type Forming struct {
	ChatID    string        `json:"chatId"`
	MessageID string        `json:"messageId"`
	Calls     []FormingCall `json:"calls"`
}

// FormingCall is one call being written: its name once known, and its
// arguments as they arrived (possibly incomplete JSON).
type FormingCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Format    string `json:"format"` // "native", or the text family ("json", "hermes", …)
	Complete  bool   `json:"complete"`
}

// Notice tells the user why the tool loop paused.
type Notice struct {
	ChatID  string `json:"chatId"`
	Code    string `json:"code"`
	Message string `json:"message"`
	// Text is Message coded for the UI's language, when coded.
	Text *uitext.Text `json:"text,omitempty"`
}

// FrameInterval is about one animation frame: more events than this only
// queue script evaluations in the webview without showing anything sooner.
const FrameInterval = 16 * time.Millisecond

// Emitter delivers one event to the UI (runtime.EventsEmit in the app).
type Emitter func(name string, payload any)

// DeltaEvent carries text to append to a streaming message. Seq starts at 1
// and grows by one per event of the message, so the UI can detect a gap and
// re-read the whole message.
type DeltaEvent struct {
	ChatID    string `json:"chatId"`
	MessageID string `json:"messageId"`
	Seq       int    `json:"seq"`
	Content   string `json:"content"`
	Reasoning string `json:"reasoning"`
}

// EndEvent carries the final, stored message.
type EndEvent struct {
	ChatID    string       `json:"chatId"`
	MessageID string       `json:"messageId"`
	Seq       int          `json:"seq"`
	Message   chat.Message `json:"message"`
}

// Coalescer batches the deltas of one streaming message. Safe for concurrent use.
type Coalescer struct {
	emit      Emitter
	interval  time.Duration
	chatID    string
	messageID string

	mu        sync.Mutex
	text      strings.Builder
	reasoning strings.Builder
	seq       int
	lastEmit  time.Time
	timer     *time.Timer // pending flush, nil when none is scheduled
	ended     bool
}

// NewCoalescer makes a coalescer for one message. interval <= 0 uses FrameInterval.
func NewCoalescer(emit Emitter, chatID, messageID string, interval time.Duration) *Coalescer {
	if interval <= 0 {
		interval = FrameInterval
	}
	return &Coalescer{emit: emit, interval: interval, chatID: chatID, messageID: messageID}
}

// Add queues a piece of answer text and/or reasoning.
func (c *Coalescer) Add(text, reasoning string) {
	if text == "" && reasoning == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return
	}
	c.text.WriteString(text)
	c.reasoning.WriteString(reasoning)
	if c.timer != nil {
		return // a flush is already scheduled and will carry this piece
	}
	wait := c.interval - time.Since(c.lastEmit)
	if wait <= 0 {
		c.flushLocked()
		return
	}
	c.timer = time.AfterFunc(wait, c.onTimer)
}

func (c *Coalescer) onTimer() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.timer = nil
	if !c.ended {
		c.flushLocked()
	}
}

// flushLocked emits what is pending. The emit happens under the lock so
// events leave in sequence order.
func (c *Coalescer) flushLocked() {
	if c.text.Len() == 0 && c.reasoning.Len() == 0 {
		return
	}
	c.seq++
	ev := DeltaEvent{ChatID: c.chatID, MessageID: c.messageID, Seq: c.seq, Content: c.text.String(), Reasoning: c.reasoning.String()}
	c.text.Reset()
	c.reasoning.Reset()
	c.lastEmit = time.Now()
	c.emit(EventDelta, ev)
}

// End flushes what is pending and sends the terminal event with the final
// message. It is always delivered, exactly once; later Adds are ignored.
func (c *Coalescer) End(final chat.Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return
	}
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	c.flushLocked()
	c.ended = true
	c.seq++
	c.emit(EventEnd, EndEvent{ChatID: c.chatID, MessageID: c.messageID, Seq: c.seq, Message: final})
}

// WorkspaceChanged says which chat's workspace a tool may have changed.
type WorkspaceChanged struct {
	ChatID string `json:"chatId"`
}
