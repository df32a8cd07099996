package engine

import (
	"context"
	"errors"
	"fmt"

	"airlock/backend/attach"
	"airlock/backend/chat"
	"airlock/backend/engine/fit"
)

// ContextUsage is what the chat's next request takes of the model's window:
// the gauge in the chat header.
type ContextUsage struct {
	Used    int    `json:"used"`    // tokens the next request takes, fitted (estimated)
	Full    int    `json:"full"`    // tokens it would take unfitted
	Window  int    `json:"window"`  // the model's window
	Reserve int    `json:"reserve"` // kept free for the answer
	Source  string `json:"source"`  // where the window size came from
	Model   string `json:"model"`
	// Parts is where the room goes: instructions and tools, the
	// conversation, tool results.
	Parts fit.Parts `json:"parts"`
	// What fitting does to the next request: results elided, messages left
	// out, messages cut in the middle.
	Elided  int `json:"elided"`
	Dropped int `json:"dropped"`
	Cut     int `json:"cut"`
	// TooLarge: the next request does not fit even fitted (the draft, the
	// system prompt and the tools are too large for the window).
	TooLarge bool `json:"tooLarge"`
	// Reported is the prompt size the server reported for the chat's last
	// answer (0 when none).
	Reported int `json:"reported"`
	// Calibrated: the server has reported sizes for this model, so counts
	// are scaled to its own.
	Calibrated bool `json:"calibrated"`
	// Compaction is the chat's mode: auto, ask or off.
	Compaction string `json:"compaction"`
	// Summarized is how many messages the active summary stands for (0: none).
	Summarized int `json:"summarized"`
}

// DraftFile is a file waiting in the composer, as the gauge counts it: not
// its bytes (they are read when it is sent), its kind and size.
type DraftFile struct {
	Name   string `json:"name"`
	Image  bool   `json:"image"`
	Size   int64  `json:"size"` // bytes
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// draftID stands for the message being written.
const draftID = "draft"

// bytesPerToken is what a text file is taken to cost before it is read:
// about four bytes a token (cl100k on English and code).
const bytesPerToken = 4

// draftTokens is what the composer's files will cost: an image by its
// estimate (its note when the model does not take images), a text file by
// its size and its block's header.
func (p turnPlan) draftTokens() int {
	n := 0
	for _, f := range p.draftFiles {
		switch {
		case f.Image && p.seesImages():
			n += fit.ImageTokens(p.imageKind(), f.Width, f.Height) + p.count(fmt.Sprintf("[image %s (%d×%d) attached]", f.Name, f.Width, f.Height))
		case f.Image:
			n += p.count(attach.ImageNote(f.Name, f.Width, f.Height))
		default:
			n += int(min(f.Size, attach.MaxFileBytes)/bytesPerToken) + p.count("File: "+f.Name+"\n```\n```")
		}
	}
	return n
}

// ContextUsage measures the chat's next request, with draft as the user's
// next message when it is not empty. Nothing is sent or stored.
func (e *Engine) ContextUsage(ctx context.Context, chatID, draft string) (ContextUsage, error) {
	return e.DraftUsage(ctx, chatID, draft, nil)
}

// DraftUsage is ContextUsage with the files waiting in the composer
// counted in the draft (capped at attach.MaxFiles).
func (e *Engine) DraftUsage(ctx context.Context, chatID, draft string, files []DraftFile) (ContextUsage, error) {
	c, err := e.store.GetChat(ctx, chatID)
	if err != nil {
		return ContextUsage{}, err
	}
	var provider chat.Provider
	if e.provider != nil {
		provider, err = e.provider(ctx, c)
	} else {
		provider, _, err = e.connect(ctx, c)
	}
	if err != nil && provider.ID == "" {
		return ContextUsage{}, err
	}
	history, err := e.store.ListMessages(ctx, chatID)
	if err != nil {
		return ContextUsage{}, err
	}
	u := ContextUsage{Model: provider.Model}
	for i := len(history) - 1; i >= 0; i-- {
		if m := history[i]; m.Role == chat.RoleAssistant && m.Usage.PromptTokens > 0 {
			u.Reported = m.Usage.PromptTokens
			break
		}
	}
	if len(files) > attach.MaxFiles {
		files = files[:attach.MaxFiles]
	}
	if draft != "" || len(files) > 0 {
		history = append(history, chat.Message{ID: draftID, ChatID: chatID, Role: chat.RoleUser, Kind: chat.KindText, Content: draft, Status: chat.StatusComplete})
	}
	plan := e.planTurn(ctx, c, provider, history)
	plan.draftFiles = files
	plan.window = e.budgetFor(ctx, provider)
	_, rep, err := plan.request()
	if err != nil && !errors.Is(err, fit.ErrTooSmall) {
		return ContextUsage{}, err
	}
	u.Used, u.Window, u.Reserve, u.Source = rep.Tokens, plan.window.Tokens, plan.window.Reserve, plan.window.Source
	u.Parts, u.Elided, u.Dropped, u.Cut, u.TooLarge = rep.Parts, rep.Elided, rep.Dropped, rep.Cut, err != nil
	u.Full = rep.Full
	if mode, err := e.store.GetCompaction(ctx, chatID); err == nil {
		u.Compaction = string(mode)
	}
	if plan.summary != nil {
		u.Summarized = plan.summary.covered
	}
	e.win.mu.Lock()
	u.Calibrated = e.win.ratio[modelKey(provider)] > 0
	e.win.mu.Unlock()
	return u, nil
}
