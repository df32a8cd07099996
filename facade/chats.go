package facade

import (
	"airlock/backend/chat"
)

func (a *App) ListChats() ([]chat.Chat, error) { return result(a.store.ListChats(a.ctx)) }
func (a *App) CreateChat() (chat.Chat, error)  { return a.CreateChatWith("") }
func (a *App) RenameChat(id, title string) (chat.Chat, error) {
	return result(a.store.RenameChat(a.ctx, id, title))
}

// DeleteChat moves a chat to the Trash (trash.go): its answer stops, its
// workspace closes; RestoreChat brings it back.
func (a *App) DeleteChat(id string) error {
	a.engine.Stop(id)
	err := a.store.TrashChat(a.ctx, id)
	if err == nil {
		a.workspaces.Forget(id)
	}
	return toAPI(err)
}
func (a *App) ListMessages(chatID string) ([]chat.Message, error) {
	return result(a.store.ListMessages(a.ctx, chatID))
}

// GetMessage returns a message; one still streaming comes with all the text
// received so far, so a UI that missed a delta can catch up.
func (a *App) GetMessage(id string) (chat.Message, error) {
	if m, ok := a.engine.Live(id); ok {
		return m, nil
	}
	return result(a.store.GetMessage(a.ctx, id))
}
func (a *App) Send(chatID, text string) ([]chat.Message, error) {
	return result(a.engine.Send(a.ctx, chatID, text))
}
func (a *App) Stop(chatID string) { a.engine.Stop(chatID) }
func (a *App) Retry(chatID string) (chat.Message, error) {
	return result(a.engine.Retry(a.ctx, chatID))
}
func (a *App) ActiveStreams() []string { return a.engine.Active() }
