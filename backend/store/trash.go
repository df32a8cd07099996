package store

import (
	"context"
	"database/sql"

	"airlock/backend/chat"
)

// The Trash (migration 0019). TrashChat only marks the chat (deleted_at);
// nothing it owns is touched, so RestoreChat brings it back exactly: its
// messages and their versions, calls, attachments, workspace settings and
// scratch files, checkpoints, chat rules and audit rows, and its place in
// the sidebar (updated_at does not change). A chat in the Trash is left out
// of ListChats, Search and ReadChats(nil).
//
// DeleteChat (chats.go) deletes for good; PurgeTrash does so for the chats
// that have been in the Trash for TrashDays, EmptyTrash for all of them.
// Deleting for good removes everything the chat owns, its audit rows too
// (they hold its arguments and outputs: "delete forever" keeps nothing of
// it), then the attachment bytes no other message uses.

// trashNow is the Trash's clock (a field so tests can fix it).
func (s *Store) trashNow() int64 {
	if s.now != nil {
		return s.now()
	}
	return chat.Now()
}

// TrashChat moves a chat to the Trash. A chat already there keeps its date.
func (s *Store) TrashChat(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx,
		"UPDATE chats SET deleted_at = CASE WHEN deleted_at > 0 THEN deleted_at ELSE ? END WHERE id = ?", s.trashNow(), id)
	if err == nil {
		err = mustAffect(res, "chat", id)
	}
	return wrap("move chat to trash", err)
}

// RestoreChat takes a chat out of the Trash, as it was.
func (s *Store) RestoreChat(ctx context.Context, id string) (chat.Chat, error) {
	var c chat.Chat
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE chats SET deleted_at = 0 WHERE id = ? AND deleted_at > 0", id)
		if err != nil {
			return err
		}
		if err := mustAffect(res, "chat in the trash", id); err != nil {
			return err
		}
		c, err = getChat(ctx, tx, id)
		return err
	})
	return c, wrap("restore chat", err)
}

// InTrash says whether a chat is in the Trash (false for one that is not
// here at all).
func (s *Store) InTrash(ctx context.Context, id string) bool {
	var at int64
	_ = s.queryRow(ctx, nil, "SELECT deleted_at FROM chats WHERE id = ?", id).Scan(&at)
	return at > 0
}

// ListTrash returns the chats in the Trash, most recently deleted first.
func (s *Store) ListTrash(ctx context.Context) ([]chat.TrashedChat, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT c.id, c.title, c.created_at, c.updated_at, c.deleted_at,
		(SELECT count(*) FROM messages m WHERE m.chat_id = c.id)
		FROM chats c WHERE c.deleted_at > 0 ORDER BY c.deleted_at DESC, c.id DESC`)
	if err != nil {
		return nil, wrap("list trash", err)
	}
	defer rows.Close()
	out := []chat.TrashedChat{}
	for rows.Next() {
		var t chat.TrashedChat
		if err := rows.Scan(&t.ID, &t.Title, &t.CreatedAt, &t.UpdatedAt, &t.DeletedAt, &t.Messages); err != nil {
			return nil, wrap("list trash", err)
		}
		t.PurgeAt = t.DeletedAt + chat.TrashMillis
		out = append(out, t)
	}
	return out, wrap("list trash", rows.Err())
}

// DeleteFromTrash deletes a chat in the Trash for good. A chat that is not
// in the Trash is refused (not found): nothing skips the Trash by mistake.
func (s *Store) DeleteFromTrash(ctx context.Context, id string) error {
	n, err := s.purge(ctx, "deleted_at > 0 AND id = ?", id)
	if err == nil && n == 0 {
		err = wrap("delete from trash", notFound("chat in the trash", id))
	}
	return err
}

// EmptyTrash deletes every chat in the Trash for good and says how many.
func (s *Store) EmptyTrash(ctx context.Context) (int, error) {
	return s.purge(ctx, "deleted_at > 0")
}

// PurgeTrash deletes for good the chats that have been in the Trash for
// TrashDays or more, and says how many.
func (s *Store) PurgeTrash(ctx context.Context) (int, error) {
	return s.purge(ctx, "deleted_at > 0 AND deleted_at <= ?", s.trashNow()-chat.TrashMillis)
}

func (s *Store) purge(ctx context.Context, where string, args ...any) (int, error) {
	res, err := s.db.ExecContext(ctx, "DELETE FROM chats WHERE "+where, args...)
	if err != nil {
		return 0, wrap("empty trash", err)
	}
	n, _ := res.RowsAffected()
	if n > 0 {
		err = s.dropUnusedBlobs(ctx) // what only those chats used
	}
	return int(n), wrap("empty trash", err)
}
