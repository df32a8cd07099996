package facade

import (
	"context"

	"airlock/backend/chat"
	"airlock/backend/engine"
)

// engineWindow is the window the engine fits a provider's model requests
// to: what is known of it (the user's, an overflow's, the server's), with
// the user's answer budget as the room kept for the answer.
func (a *App) engineWindow(ctx context.Context, p chat.Provider) engine.Window {
	m, err := a.store.GetModelWindow(ctx, p.ID, p.Model)
	if err != nil {
		return engine.Window{}
	}
	tokens, source := m.Effective()
	return engine.Window{Tokens: tokens, Reserve: m.MaxOutput(), Source: source}
}

// Context: how much of the model's window a chat's next request takes, and
// the summaries that fold the older part of a chat when it no longer fits.

// ContextUsage measures the chat's next request (with draft as the next
// message when not empty): used and window in tokens, and what takes the room.
func (a *App) ContextUsage(chatID, draft string) (engine.ContextUsage, error) {
	return result(a.engine.ContextUsage(a.ctx, chatID, draft))
}

// ListSummaries returns a chat's summaries, oldest first (one is active at most).
func (a *App) ListSummaries(chatID string) ([]chat.Summary, error) {
	return result(a.store.ListSummaries(a.ctx, chatID))
}

// CompactNow folds the older part of the chat into a summary written by the model.
func (a *App) CompactNow(chatID string) (chat.Summary, error) {
	return result(a.engine.CompactNow(a.ctx, chatID))
}

// UndoSummary sets a summary aside; the messages it covered are sent (shortened to fit) again.
func (a *App) UndoSummary(id string) (chat.Summary, error) {
	return result(a.engine.UndoSummary(a.ctx, id))
}

// SetCompaction sets whether the chat compacts by itself: auto, ask or off.
func (a *App) SetCompaction(chatID, mode string) error {
	return toAPI(a.store.SetCompaction(a.ctx, chatID, chat.Compaction(mode)))
}
