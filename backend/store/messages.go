package store

import (
	"context"
	"database/sql"

	"airlock/backend/chat"
)

const messageColumns = `id, chat_id, role, kind, content, reasoning, status, error_code, error_message,
	model, prompt_tokens, completion_tokens, total_tokens, created_at, updated_at`

type scanner interface{ Scan(dest ...any) error }

func scanMessage(r scanner) (chat.Message, error) {
	var m chat.Message
	err := r.Scan(&m.ID, &m.ChatID, &m.Role, &m.Kind, &m.Content, &m.Reasoning, &m.Status,
		&m.ErrorCode, &m.ErrorMessage, &m.Model,
		&m.Usage.PromptTokens, &m.Usage.CompletionTokens, &m.Usage.TotalTokens,
		&m.CreatedAt, &m.UpdatedAt)
	return m, err
}

func validRole(r chat.Role) bool {
	return r == chat.RoleSystem || r == chat.RoleUser || r == chat.RoleAssistant
}

func validStatus(st chat.Status) bool {
	switch st {
	case chat.StatusStreaming, chat.StatusComplete, chat.StatusInterrupted, chat.StatusError:
		return true
	}
	return false
}

// AddMessage appends a message to its chat and marks the chat as active now.
// It fills in what the caller left empty: ID, times, Kind "text" and Status
// "complete".
func (s *Store) AddMessage(ctx context.Context, m chat.Message) (chat.Message, error) {
	if m.ID == "" {
		m.ID = chat.NewID()
	}
	now := chat.Now()
	if m.CreatedAt == 0 {
		m.CreatedAt = now
	}
	if m.UpdatedAt == 0 {
		m.UpdatedAt = m.CreatedAt
	}
	if m.Kind == "" {
		m.Kind = chat.KindText
	}
	if m.Status == "" {
		m.Status = chat.StatusComplete
	}
	// Checked here as well as by the schema, for a readable message.
	if m.ChatID == "" {
		return chat.Message{}, invalid("message has no chat")
	}
	if !validRole(m.Role) {
		return chat.Message{}, invalid("unknown message role %q", m.Role)
	}
	if !validStatus(m.Status) {
		return chat.Message{}, invalid("unknown message status %q", m.Status)
	}
	if m.Kind != chat.KindText && m.Kind != chat.KindToolResults {
		return chat.Message{}, invalid("unknown message kind %q", m.Kind)
	}
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		// Bumping the chat first doubles as the existence check, so an
		// unknown chat is a clean not-found rather than a foreign key error.
		res, err := tx.ExecContext(ctx, "UPDATE chats SET updated_at = ? WHERE id = ?", now, m.ChatID)
		if err != nil {
			return err
		}
		if err := mustAffect(res, "chat", m.ChatID); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO messages (`+messageColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			m.ID, m.ChatID, m.Role, m.Kind, m.Content, m.Reasoning, m.Status,
			m.ErrorCode, m.ErrorMessage, m.Model,
			m.Usage.PromptTokens, m.Usage.CompletionTokens, m.Usage.TotalTokens,
			m.CreatedAt, m.UpdatedAt)
		return err
	})
	if err != nil {
		return chat.Message{}, wrap("add message", err)
	}
	return m, nil
}

// UpdateMessage saves the mutable parts of a message (what streaming
// changes). ChatID, Role, Kind and CreatedAt are fixed at creation.
func (s *Store) UpdateMessage(ctx context.Context, m chat.Message) error {
	if !validStatus(m.Status) {
		return invalid("unknown message status %q", m.Status)
	}
	res, err := s.db.ExecContext(ctx, `UPDATE messages SET content = ?, reasoning = ?, status = ?,
		error_code = ?, error_message = ?, model = ?,
		prompt_tokens = ?, completion_tokens = ?, total_tokens = ?, updated_at = ?
		WHERE id = ?`,
		m.Content, m.Reasoning, m.Status, m.ErrorCode, m.ErrorMessage, m.Model,
		m.Usage.PromptTokens, m.Usage.CompletionTokens, m.Usage.TotalTokens, chat.Now(),
		m.ID)
	if err == nil {
		err = mustAffect(res, "message", m.ID)
	}
	return wrap("update message", err)
}

// GetMessage returns one message.
func (s *Store) GetMessage(ctx context.Context, id string) (chat.Message, error) {
	m, err := scanMessage(s.db.QueryRowContext(ctx,
		"SELECT "+messageColumns+" FROM messages WHERE id = ?", id))
	if isNoRows(err) {
		return chat.Message{}, notFound("message", id)
	}
	if err != nil {
		return chat.Message{}, wrap("get message", err)
	}
	return m, nil
}

// ListMessages returns a chat's messages in the order they were written.
// An unknown chat is an error; a chat without messages gives an empty slice.
func (s *Store) ListMessages(ctx context.Context, chatID string) ([]chat.Message, error) {
	rows, err := s.db.QueryContext(ctx,
		"SELECT "+messageColumns+" FROM messages WHERE chat_id = ? ORDER BY created_at, id", chatID)
	if err != nil {
		return nil, wrap("list messages", err)
	}
	defer rows.Close()
	msgs := []chat.Message{} // the UI wants [], not null
	for rows.Next() {
		m, err := scanMessage(rows)
		if err != nil {
			return nil, wrap("list messages", err)
		}
		msgs = append(msgs, m)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("list messages", err)
	}
	if len(msgs) == 0 {
		// Only now is it worth asking whether the chat exists at all.
		if _, err := s.GetChat(ctx, chatID); err != nil {
			return nil, err
		}
	}
	return msgs, nil
}

// DeleteMessage removes one message.
func (s *Store) DeleteMessage(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM messages WHERE id = ?", id)
	if err == nil {
		err = mustAffect(res, "message", id)
	}
	return wrap("delete message", err)
}

// InterruptStreaming marks every message still "streaming" as "interrupted".
// Run it at start-up: after a crash nothing is streaming any more.
func (s *Store) InterruptStreaming(ctx context.Context) (int, error) {
	res, err := s.db.ExecContext(ctx,
		"UPDATE messages SET status = ?, updated_at = ? WHERE status = ?",
		chat.StatusInterrupted, chat.Now(), chat.StatusStreaming)
	if err != nil {
		return 0, wrap("interrupt streaming messages", err)
	}
	n, err := res.RowsAffected()
	return int(n), wrap("interrupt streaming messages", err)
}
