package engine

import (
	"slices"
	"time"
	"unicode/utf8"

	"airlock/backend/bridge"
	"airlock/backend/llm"
	"airlock/backend/paradigm"
)

// formingEvery bounds how often the calls of a streaming answer are
// re-read and sent to the UI: reading text calls scans the answer so far.
const formingEvery = 150 * time.Millisecond

// maxFormingArgs bounds the arguments shown on a forming card; the card
// that can be decided shows all of them.
const maxFormingArgs = 4 << 10

// former follows the calls of an answer while it streams, for cards that
// form as the model writes (display only: what runs is what the complete
// answer says).
type former struct {
	emit              bridge.Emitter
	chatID, messageID string
	text              *paradigm.Stream // nil: text calls are not followed
	native            []bridge.FormingCall
	sent              []bridge.FormingCall
	last              time.Time
}

func newFormer(emit bridge.Emitter, chatID, messageID string, text *paradigm.Stream) *former {
	return &former{emit: emit, chatID: chatID, messageID: messageID, text: text}
}

// add takes one delta of the answer.
func (f *former) add(d llm.Delta) {
	if f.text != nil && d.Text != "" {
		f.text.Write(d.Text)
	}
	grew := false
	for _, tc := range d.ToolCalls {
		for len(f.native) <= tc.Index {
			f.native = append(f.native, bridge.FormingCall{Format: "native"})
			grew = true
		}
		c := &f.native[tc.Index]
		c.Name += tc.Name
		if len(c.Arguments) < maxFormingArgs {
			c.Arguments += tc.Arguments
		}
	}
	if grew || time.Since(f.last) >= formingEvery {
		f.flush()
	}
}

// flush sends the calls as they are now, if they changed.
func (f *former) flush() {
	f.last = time.Now()
	var calls []bridge.FormingCall
	if f.text != nil {
		for _, c := range f.text.Forming() {
			calls = append(calls, bridge.FormingCall{Name: c.Name, Arguments: clip(string(c.Arguments)), Format: c.Format, Complete: true})
		}
		if w, ok := f.text.Writing(); ok {
			calls = append(calls, bridge.FormingCall{Name: w.Name, Arguments: clip(w.Arguments()), Format: w.Format})
		}
	}
	for i, c := range f.native {
		c.Complete = i < len(f.native)-1 // a later call began: this one is whole
		c.Arguments = clip(c.Arguments)
		calls = append(calls, c)
	}
	if slices.Equal(calls, f.sent) {
		return
	}
	f.sent = calls
	f.emit(bridge.EventCallsForming, bridge.Forming{ChatID: f.chatID, MessageID: f.messageID, Calls: calls})
}

func clip(s string) string {
	if len(s) <= maxFormingArgs {
		return s
	}
	cut := maxFormingArgs
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
