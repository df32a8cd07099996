package facade

import (
	"context"
	"time"

	"airlock/backend/chat"
)

// The Trash: Delete moves a chat there (DeleteChat, chats.go); it stays
// restorable for chat.TrashDays, then goes for good.

// trashPurgeEvery is how often a running app deletes what has been in the
// Trash for chat.TrashDays (it also does so at start-up).
const trashPurgeEvery = time.Hour

// ListTrash returns the chats in the Trash, most recently deleted first.
func (a *App) ListTrash() ([]chat.TrashedChat, error) { return result(a.store.ListTrash(a.ctx)) }

// RestoreChat takes a chat out of the Trash, exactly as it was.
func (a *App) RestoreChat(id string) (chat.Chat, error) {
	return result(a.store.RestoreChat(a.ctx, id))
}

// DeleteChatForever deletes a chat in the Trash for good (one not in the
// Trash is refused).
func (a *App) DeleteChatForever(id string) error {
	a.workspaces.Forget(id)
	return toAPI(a.store.DeleteFromTrash(a.ctx, id))
}

// EmptyTrash deletes every chat in the Trash for good and says how many.
func (a *App) EmptyTrash() (int, error) {
	list, err := a.store.ListTrash(a.ctx)
	if err != nil {
		return 0, toAPI(err)
	}
	for _, c := range list {
		a.workspaces.Forget(c.ID)
	}
	return result(a.store.EmptyTrash(a.ctx))
}

// keepTrash deletes what has been in the Trash for chat.TrashDays now and
// then every trashPurgeEvery, until ctx ends.
func (a *App) keepTrash(ctx context.Context, every time.Duration) {
	_, _ = a.store.PurgeTrash(ctx)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_, _ = a.store.PurgeTrash(ctx)
		}
	}
}
