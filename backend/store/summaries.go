package store

import (
	"context"
	"database/sql"

	"airlock/backend/chat"
)

// Summaries of the start of a conversation (see migration 0012).

const summaryColumns = "id, chat_id, through_id, covered, content, model, tokens_before, tokens_after, version, state, created_at"

func scanSummary(r scanner) (chat.Summary, error) {
	var m chat.Summary
	err := r.Scan(&m.ID, &m.ChatID, &m.ThroughID, &m.Covered, &m.Content, &m.Model, &m.TokensBefore, &m.TokensAfter, &m.Version, &m.State, &m.CreatedAt)
	return m, err
}

// AddSummary stores a new summary of a chat as its active one: the one
// active before is marked replaced, in the same transaction. It fills in
// the ID, version and time.
func (s *Store) AddSummary(ctx context.Context, m chat.Summary) (chat.Summary, error) {
	if m.Content == "" || m.Covered <= 0 || m.ThroughID == "" {
		return chat.Summary{}, invalid("a summary needs a text and the messages it covers")
	}
	m.ID, m.CreatedAt, m.State = chat.NewID(), chat.Now(), chat.SummaryActive
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		if err := s.checkInChat(ctx, tx, m.ThroughID, m.ChatID); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, "SELECT coalesce(max(version), 0) + 1 FROM summaries WHERE chat_id = ?", m.ChatID).Scan(&m.Version); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE summaries SET state = ? WHERE chat_id = ? AND state = ?", chat.SummaryReplaced, m.ChatID, chat.SummaryActive); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "INSERT INTO summaries ("+summaryColumns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			m.ID, m.ChatID, m.ThroughID, m.Covered, m.Content, m.Model, m.TokensBefore, m.TokensAfter, m.Version, m.State, m.CreatedAt)
		return err
	})
	if err != nil {
		return chat.Summary{}, wrap("add summary", err)
	}
	return m, nil
}

// ListSummaries returns a chat's summaries, oldest first.
func (s *Store) ListSummaries(ctx context.Context, chatID string) ([]chat.Summary, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+summaryColumns+" FROM summaries WHERE chat_id = ? ORDER BY created_at, id", chatID)
	if err != nil {
		return nil, wrap("list summaries", err)
	}
	defer rows.Close()
	out := []chat.Summary{}
	for rows.Next() {
		m, err := scanSummary(rows)
		if err != nil {
			return nil, wrap("list summaries", err)
		}
		out = append(out, m)
	}
	return out, wrap("list summaries", rows.Err())
}

// UndoSummary sets a summary aside: the chat's requests no longer use it.
func (s *Store) UndoSummary(ctx context.Context, id string) (chat.Summary, error) {
	m, err := scanSummary(s.db.QueryRowContext(ctx, "UPDATE summaries SET state = ? WHERE id = ? RETURNING "+summaryColumns, chat.SummaryUndone, id))
	if isNoRows(err) {
		return m, notFound("summary", id)
	}
	return m, wrap("undo summary", err)
}

// GetCompaction is a chat's compaction mode (auto when never set).
func (s *Store) GetCompaction(ctx context.Context, chatID string) (chat.Compaction, error) {
	var mode string
	err := s.db.QueryRowContext(ctx, "SELECT mode FROM chat_compaction WHERE chat_id = ?", chatID).Scan(&mode)
	if isNoRows(err) {
		return chat.CompactAuto, nil
	}
	if m, ok := chat.ParseCompaction(mode); ok && err == nil {
		return m, nil
	}
	return chat.CompactAuto, wrap("get compaction", err)
}

// SetCompaction sets a chat's compaction mode.
func (s *Store) SetCompaction(ctx context.Context, chatID string, mode chat.Compaction) error {
	if _, ok := chat.ParseCompaction(string(mode)); !ok {
		return invalid("unknown compaction mode %q (want auto, ask or off)", mode)
	}
	if _, err := s.GetChat(ctx, chatID); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, "INSERT INTO chat_compaction (chat_id, mode) VALUES (?, ?) ON CONFLICT (chat_id) DO UPDATE SET mode = excluded.mode", chatID, mode)
	return wrap("set compaction", err)
}
