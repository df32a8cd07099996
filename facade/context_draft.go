package facade

import "airlock/backend/engine"

// DraftContextUsage is ContextUsage with the files waiting in the composer
// counted (their kind, size and pixels; not their bytes, read at send).
func (a *App) DraftContextUsage(chatID, draft string, files []engine.DraftFile) (engine.ContextUsage, error) {
	return result(a.engine.DraftUsage(a.ctx, chatID, draft, files))
}
