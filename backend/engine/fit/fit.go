// Package fit makes the view of a conversation that is sent to the model
// fit its context window. The history in the store is the truth and is never
// cut; Fit is a pure function of the messages, the budget and a counter:
//
//   - the system prompt (with the tool instructions) always stays, and so
//     does the user's latest own message (the task at hand);
//   - the most recent exchanges stay whole;
//   - older tool results shrink first, to a stub that says which tool it
//     was and how large the result was (the model may call it again);
//   - if that is not enough, the oldest exchanges are left out (the engine
//     folds them into a stored summary, which it passes in pinned);
//   - the newest results are cut in the middle when the last exchange
//     alone takes more than half the room, and as a last resort; what is
//     pinned is never cut: if it does not fit, Fit says so (ErrTooSmall).
//
// A native exchange (an assistant message with tool calls and the tool
// messages that answer them) is kept or left out as a whole, so the request
// stays valid for the API.
package fit

import (
	"errors"
	"fmt"
	"strings"

	"airlock/backend/llm"
)

// Message is one message of the request, with what Fit needs to know.
type Message struct {
	llm.Message
	// ID is the stored message it came from ("" for none): a native
	// exchange's tool messages carry the assistant message's ID.
	ID string
	// Results, when set, are the tool results this message carries; its
	// Content may be replaced by a stub naming them.
	Results []Result
	// Pinned messages are never left out or shortened (a summary, the
	// user's latest message).
	Pinned bool
	// Images is what the message costs beside its text: its images
	// (ImageTokens), and the files of a draft not yet read; Files is what
	// the attached text files within its Content cost (counted with it;
	// said apart in the report's Parts).
	Images, Files int
}

// Result is a tool result carried by a message: which tool, how large.
type Result struct {
	Tool  string
	Chars int
}

// Counter counts the tokens of a text.
type Counter interface {
	Count(text string) int
}

// Budget is what the request must fit in.
type Budget struct {
	Window  int // the model's context window, in tokens
	Reserve int // kept free for the answer
	Tools   int // the native tool definitions sent beside the messages
	// Recent is how many of the last exchanges stay whole while anything
	// older can still give way (default DefaultRecent), as long as they
	// take at most half the room left beside what is pinned; the last one
	// always does.
	Recent int
}

// DefaultRecent exchanges stay whole while older ones can give way.
const DefaultRecent = 3

// PerMessage is what one message costs beyond its text (role and framing).
const PerMessage = 4

// Report says what Fit did and what takes the room.
type Report struct {
	Tokens  int // the estimated size of the request (messages and tools)
	Full    int // its size before fitting
	Limit   int // Window - Reserve
	Elided  int // tool results replaced by a stub
	Dropped int // messages left out
	// DroppedThrough is the ID of the last stored message left out ("" for
	// none): what a summary should cover.
	DroppedThrough string
	Cut            int // results (or the latest message) cut in the middle
	Parts          Parts
	// Images is what the images of the request cost (estimated, in Tokens).
	Images int
}

// Parts is where the room goes, in tokens, after fitting.
type Parts struct {
	Instructions int `json:"instructions"` // system prompt, tool instructions and definitions
	History      int `json:"history"`      // the conversation's text
	Results      int `json:"results"`      // tool results
	Attachments  int `json:"attachments"`  // attached files and images (tools' images too)
}

// ErrTooSmall: even the system prompt and the latest message do not fit.
var ErrTooSmall = errors.New("the context window is too small for the instructions and the latest message")

// unit is a run of messages kept or left out together.
type unit struct {
	from, to int // msgs[from:to]
	pinned   bool
}

// Fit returns the messages to send: msgs itself when it fits, else a copy
// with some contents replaced and some messages left out. msgs[0] is the
// system prompt when its role is system. It fails with ErrTooSmall when even
// what is pinned does not fit; the report still says the sizes.
func Fit(msgs []Message, b Budget, c Counter) ([]Message, Report, error) {
	if b.Recent <= 0 {
		b.Recent = DefaultRecent
	}
	rep := Report{Limit: b.Window - b.Reserve}
	cost := make([]int, len(msgs))
	total := b.Tools
	for i, m := range msgs {
		cost[i] = m.cost(c)
		total += cost[i]
	}
	rep.Full = total
	if total <= rep.Limit || b.Window <= 0 {
		rep.Tokens, rep.Parts, rep.Images = total, parts(msgs, cost, b.Tools), images(msgs)
		return msgs, rep, nil
	}
	f := &fitter{out: append([]Message(nil), msgs...), cost: cost, total: total, limit: rep.Limit, c: c, rep: &rep}
	f.keep = make([]bool, len(msgs))
	for i := range f.keep {
		f.keep[i] = true
	}
	units := split(f.out)
	if len(units) == 0 {
		units = []unit{{}}
	}
	firstRecent := recentFrom(units, cost, b.Recent, (rep.Limit-b.Tools-pinnedCost(units, cost))/2)
	older, recent := units[:firstRecent], units[firstRecent:len(units)-1]
	// 0. A last exchange larger than half the room is cut to that first:
	// leaving older messages out for it would gain little and lose much.
	f.capUnit(units[len(units)-1], (rep.Limit-b.Tools-pinnedCost(units, cost))/2)
	f.elide(older)  // 1. older tool results shrink, oldest first
	f.drop(older)   // 2. older exchanges are left out, oldest first
	f.elide(recent) // 3. recent results shrink too, all but the last exchange's
	f.drop(recent)  // 4. recent exchanges before the last are left out
	f.cutLargest()  // 5. what is left is cut in the middle, the largest first
	res := f.result()
	rcost := make([]int, len(res))
	rep.Tokens = b.Tools
	for i, m := range res {
		rcost[i] = m.cost(c)
		rep.Tokens += rcost[i]
	}
	rep.Parts, rep.Images = parts(res, rcost, b.Tools), images(res)
	if rep.Tokens > rep.Limit {
		return res, rep, fmt.Errorf("%w (%d tokens needed, %d available)", ErrTooSmall, rep.Tokens, rep.Limit)
	}
	return res, rep, nil
}

// fitter is the state of one Fit.
type fitter struct {
	out          []Message
	keep         []bool
	cost         []int
	total, limit int
	c            Counter
	rep          *Report
	noticeRoom   bool // room for the note that says what was left out is held
}

func (f *fitter) fits() bool { return f.total <= f.limit }

func (f *fitter) recount(i int) {
	f.total -= f.cost[i]
	f.cost[i] = f.out[i].cost(f.c)
	f.total += f.cost[i]
}

// elide replaces the units' tool results (and large native call
// arguments) with stubs, oldest first, until the request fits.
func (f *fitter) elide(units []unit) {
	for _, u := range units {
		for i := u.from; i < u.to && !f.fits(); i++ {
			m := &f.out[i]
			if !f.keep[i] || m.Pinned {
				continue
			}
			changed := false
			if len(m.Results) > 0 {
				if s := Stub(m.Results); len(s) < len(m.Content) {
					m.Content, changed = s, true
				}
			}
			if f.elideArguments(i) {
				changed = true
			}
			if changed {
				f.recount(i)
				f.rep.Elided++
			}
		}
	}
}

// elideArguments replaces a message's large native call arguments with
// stubs and says whether it did (it recounts the message).
func (f *fitter) elideArguments(i int) bool {
	m := &f.out[i]
	changed := false
	calls := append([]llm.ToolCall(nil), m.ToolCalls...)
	for k, tc := range calls {
		if len(tc.Arguments) > bigArguments {
			calls[k].Arguments, changed = stubArguments(tc), true
		}
	}
	if changed {
		m.ToolCalls = calls
	}
	return changed
}

// bigArguments: native call arguments longer than this are elided with the
// results (a written file's whole text is in them).
const bigArguments = 1024

// drop leaves out the units that are not pinned, oldest first, until the
// request fits.
func (f *fitter) drop(units []unit) {
	for _, u := range units {
		if f.fits() {
			return
		}
		if u.pinned {
			continue
		}
		if !f.noticeRoom {
			f.noticeRoom = true
			f.total += Tokens(llm.Message{Content: Omitted(1 << 30)}, f.c) + 2
		}
		for i := u.from; i < u.to; i++ {
			f.keep[i] = false
			f.total -= f.cost[i]
			f.rep.Dropped++
			if f.out[i].ID != "" {
				f.rep.DroppedThrough = f.out[i].ID
			}
		}
	}
}

// capUnit shortens a unit's long native arguments, then cuts its largest
// messages that are not pinned in the middle, until it takes at most room
// tokens (or nothing more can be cut).
func (f *fitter) capUnit(u unit, room int) {
	size := func() int {
		n := 0
		for i := u.from; i < u.to; i++ {
			n += f.cost[i]
		}
		return n
	}
	if f.fits() || size() <= room {
		return
	}
	for i := u.from; i < u.to; i++ {
		if f.elideArguments(i) {
			f.recount(i)
			f.rep.Elided++
		}
	}
	done := make([]bool, len(f.out))
	for size() > room {
		best := -1
		for i := u.from; i < u.to; i++ {
			if !done[i] && !f.out[i].Pinned && f.out[i].Content != "" && (best < 0 || f.cost[i] > f.cost[best]) {
				best = i
			}
		}
		if best < 0 {
			return
		}
		want := f.cost[best] - (size() - room) - PerMessage
		if cut := Cut(f.out[best].Content, want, f.c); len(cut) < len(f.out[best].Content) {
			f.out[best].Content = cut
			f.recount(best)
			f.rep.Cut++
		}
		done[best] = true
	}
}

// cutLargest cuts the largest kept message that is not pinned in the
// middle until the request fits.
func (f *fitter) cutLargest() {
	for i := range f.out {
		if f.fits() {
			return
		}
		if f.keep[i] && f.elideArguments(i) {
			f.recount(i)
			f.rep.Elided++
		}
	}
	done := make([]bool, len(f.out))
	for !f.fits() {
		i := f.largest(done)
		if i < 0 {
			return
		}
		want := f.cost[i] - (f.total - f.limit) - PerMessage
		if cut := Cut(f.out[i].Content, want, f.c); len(cut) < len(f.out[i].Content) {
			f.out[i].Content = cut
			f.recount(i)
			f.rep.Cut++
		}
		done[i] = true
	}
}

// largest is the kept, unpinned message with the most tokens (never the
// system prompt, a summary or the user's latest message: those go whole or
// the request does not fit), or -1.
func (f *fitter) largest(done []bool) int {
	best := -1
	for i, m := range f.out {
		if !f.keep[i] || done[i] || m.Pinned || m.Role == "system" || m.Content == "" {
			continue
		}
		if best < 0 || f.cost[i] > f.cost[best] {
			best = i
		}
	}
	return best
}

// result is the kept messages, with one note where the first were left
// out, as the user's words (after the system prompt a conversation starts
// with the user).
func (f *fitter) result() []Message {
	res := make([]Message, 0, len(f.out))
	omitted, noted := 0, false
	for i, m := range f.out {
		if !f.keep[i] {
			omitted++
			continue
		}
		if omitted > 0 && !noted {
			noted = true
			note := Omitted(f.rep.Dropped)
			switch {
			case m.Role == "user" && m.ToolCallID == "":
				m.Content = note + "\n\n" + m.Content
			case len(res) > 0 && res[len(res)-1].Role == "user":
				res[len(res)-1].Content += "\n\n" + note
			default:
				res = append(res, Message{Message: llm.Message{Role: "user", Content: note}})
			}
		}
		res = append(res, m)
	}
	return res
}

// recentFrom is the first of the recent units, which give way only after
// everything older: at most n of the last units, as many as fit in room
// tokens, and at least the last one.
func recentFrom(units []unit, cost []int, n, room int) int {
	first := len(units) - 1
	used := 0
	for u := len(units) - 1; u >= 0 && len(units)-u <= n; u-- {
		c := 0
		for i := units[u].from; i < units[u].to; i++ {
			c += cost[i]
		}
		if units[u].pinned {
			c = 0 // counted with what is pinned
		}
		if used+c > room && u < len(units)-1 {
			break
		}
		used += c
		first = u
	}
	return max(first, 0)
}

// pinnedCost is what the pinned units take.
func pinnedCost(units []unit, cost []int) int {
	n := 0
	for _, u := range units {
		if u.pinned {
			for i := u.from; i < u.to; i++ {
				n += cost[i]
			}
		}
	}
	return n
}

// split cuts the messages after the system prompt into exchanges: a user
// message alone; an assistant message with the messages that carry its
// results (native tool messages, or the user message of results after a
// text call). A pinned message makes its unit pinned; the system prompt is
// its own pinned unit.
func split(msgs []Message) []unit {
	var units []unit
	for i := 0; i < len(msgs); {
		j := i + 1
		if msgs[i].Role == "assistant" {
			for j < len(msgs) && (msgs[j].Role == llm.RoleTool || (msgs[j].Role == "user" && len(msgs[j].Results) > 0 && msgs[j].ToolCallID == "")) {
				j++
				if msgs[j-1].Role == "user" {
					break // one user message of results answers one answer
				}
			}
		}
		u := unit{from: i, to: j, pinned: msgs[i].Role == "system"}
		for k := i; k < j; k++ {
			u.pinned = u.pinned || msgs[k].Pinned
		}
		units = append(units, u)
		i = j
	}
	return units
}

// Tokens is what a message costs: its text, its native calls and framing.
func Tokens(m llm.Message, c Counter) int {
	n := PerMessage + c.Count(m.Content)
	for _, tc := range m.ToolCalls {
		n += PerMessage + c.Count(tc.Name) + c.Count(tc.Arguments)
	}
	return n
}

// cost is what a message costs: its text and calls, and its images.
func (m Message) cost(c Counter) int { return Tokens(m.Message, c) + m.Images }

func images(msgs []Message) int {
	n := 0
	for _, m := range msgs {
		n += m.Images
	}
	return n
}

func parts(msgs []Message, cost []int, tools int) Parts {
	p := Parts{Instructions: tools}
	for i, m := range msgs {
		att := min(m.Images+m.Files, cost[i])
		p.Attachments += att
		rest := cost[i] - att
		switch {
		case m.Role == "system":
			p.Instructions += rest
		case m.Role == llm.RoleTool || len(m.Results) > 0 || strings.HasPrefix(m.Content, stubPrefix):
			p.Results += rest
		default:
			p.History += rest
		}
	}
	return p
}
