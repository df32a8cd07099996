package facade

import "airlock/backend/engine"

// Context: how much of the model's window a chat's next request takes.

// ContextUsage measures the chat's next request (with draft as the next
// message when not empty): used and window in tokens, and what takes the room.
func (a *App) ContextUsage(chatID, draft string) (engine.ContextUsage, error) {
	return result(a.engine.ContextUsage(a.ctx, chatID, draft))
}
