package store

import (
	"context"
	"database/sql"
	"strings"

	"airlock/backend/chat"
)

const messageColumns = `id, chat_id, parent_id, role, kind, content, reasoning, status, error_code, error_message,
	model, prompt_tokens, completion_tokens, total_tokens, created_at, updated_at,
	thoughts, cache_read_tokens, cache_write_tokens, error_text`

// messageColumnsOf is messageColumns qualified by a table alias ("m.id, m.chat_id, ...").
func messageColumnsOf(alias string) string {
	fields := strings.Split(messageColumns, ",")
	for i, f := range fields {
		fields[i] = alias + "." + strings.TrimSpace(f)
	}
	return strings.Join(fields, ", ")
}

// versionColumns computes Message.Versions and Message.Version for the row
// aliased m: its siblings (same chat, parent and role, itself included) and
// its place among them by creation. Both are index range scans on
// messages_by_parent.
const versionColumns = `(SELECT count(*) FROM messages s
		WHERE s.chat_id = m.chat_id AND s.parent_id = m.parent_id AND s.role = m.role),
	(SELECT count(*) FROM messages s
		WHERE s.chat_id = m.chat_id AND s.parent_id = m.parent_id AND s.role = m.role
		AND (s.created_at < m.created_at OR (s.created_at = m.created_at AND s.id <= m.id)))`

type scanner interface{ Scan(dest ...any) error }

func messageDest(m *chat.Message) []any {
	return []any{&m.ID, &m.ChatID, &m.ParentID, &m.Role, &m.Kind, &m.Content, &m.Reasoning, &m.Status,
		&m.ErrorCode, &m.ErrorMessage, &m.Model,
		&m.Usage.PromptTokens, &m.Usage.CompletionTokens, &m.Usage.TotalTokens,
		&m.CreatedAt, &m.UpdatedAt,
		&m.Thoughts, &m.Usage.CacheReadTokens, &m.Usage.CacheWriteTokens, textColumn{&m.ErrorText}}
}

func scanMessage(r scanner) (chat.Message, error) {
	var m chat.Message
	err := r.Scan(messageDest(&m)...)
	return m, err
}

// scanMessageVersions scans messageColumnsOf("m") followed by versionColumns.
func scanMessageVersions(r scanner) (chat.Message, error) {
	var m chat.Message
	err := r.Scan(append(messageDest(&m), &m.Versions, &m.Version)...)
	return m, err
}

// messageValues are the values of insertMessage: messageColumns, then the
// cjk flag of the search index.
func messageValues(m chat.Message) []any {
	return []any{m.ID, m.ChatID, m.ParentID, m.Role, m.Kind, m.Content, m.Reasoning, m.Status,
		m.ErrorCode, m.ErrorMessage, m.Model,
		m.Usage.PromptTokens, m.Usage.CompletionTokens, m.Usage.TotalTokens,
		m.CreatedAt, m.UpdatedAt,
		m.Thoughts, m.Usage.CacheReadTokens, m.Usage.CacheWriteTokens, textJSON(m.ErrorText),
		hasCJK(m.Content, m.Reasoning)}
}

const insertMessage = "INSERT INTO messages (" + messageColumns + ", cjk) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

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

func validKind(k chat.Kind) bool { return k == chat.KindText || k == chat.KindToolResults }

// prepareMessage fills in what the caller left empty (ID, times, Kind
// "text", Status "complete") and checks the rest.
func prepareMessage(m chat.Message, now int64) (chat.Message, error) {
	if m.ID == "" {
		m.ID = chat.NewID()
	}
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
		return m, invalid("message has no chat")
	}
	if !validRole(m.Role) {
		return m, invalid("unknown message role %q", m.Role)
	}
	if !validStatus(m.Status) {
		return m, invalid("unknown message status %q", m.Status)
	}
	if !validKind(m.Kind) {
		return m, invalid("unknown message kind %q", m.Kind)
	}
	m.Versions, m.Version = 0, 0
	return m, nil
}

// AddMessage appends a message to its chat's active path and marks the chat
// as active now. The new message follows the chat's current leaf (or
// m.ParentID, when set: a message of the same chat) and becomes the leaf,
// in the same transaction. It fills in what the caller left empty: ID,
// times, Kind "text" and Status "complete". The message returned carries
// its Versions and Version.
func (s *Store) AddMessage(ctx context.Context, m chat.Message) (chat.Message, error) {
	now := chat.Now()
	m, err := prepareMessage(m, now)
	if err != nil {
		return chat.Message{}, err
	}
	err = s.withTx(ctx, func(tx *sql.Tx) error {
		// Bumping the chat first doubles as the existence check, so an
		// unknown chat is a clean not-found rather than a foreign key error.
		var leaf string
		err := s.queryRow(ctx, tx, "UPDATE chats SET updated_at = ? WHERE id = ? RETURNING leaf_id", now, m.ChatID).Scan(&leaf)
		if isNoRows(err) {
			return notFound("chat", m.ChatID)
		}
		if err != nil {
			return err
		}
		if m.ParentID == "" {
			m.ParentID = leaf
		} else if err := s.checkInChat(ctx, tx, m.ParentID, m.ChatID); err != nil {
			return err
		}
		m, err = s.insertAsLeaf(ctx, tx, m)
		return err
	})
	if err != nil {
		return chat.Message{}, wrap("add message", err)
	}
	return m, nil
}

// insertAsLeaf stores m, makes it its chat's leaf and returns it with its
// version numbers.
func (s *Store) insertAsLeaf(ctx context.Context, tx *sql.Tx, m chat.Message) (chat.Message, error) {
	if _, err := s.exec(ctx, tx, insertMessage, messageValues(m)...); err != nil {
		return m, err
	}
	if _, err := s.exec(ctx, tx, "UPDATE chats SET leaf_id = ? WHERE id = ?", m.ID, m.ChatID); err != nil {
		return m, err
	}
	return s.getMessage(ctx, tx, m.ID)
}

// checkInChat makes sure a message exists and belongs to a chat.
func (s *Store) checkInChat(ctx context.Context, tx *sql.Tx, messageID, chatID string) error {
	var owner string
	err := s.queryRow(ctx, tx, "SELECT chat_id FROM messages WHERE id = ?", messageID).Scan(&owner)
	if isNoRows(err) {
		return notFound("message", messageID)
	}
	if err != nil {
		return err
	}
	if owner != chatID {
		return invalid("message %s belongs to another chat", messageID)
	}
	return nil
}

// UpdateMessage saves the mutable parts of a message (what streaming
// changes). ChatID, Role, Kind and CreatedAt are fixed at creation.
func (s *Store) UpdateMessage(ctx context.Context, m chat.Message) error {
	if !validStatus(m.Status) {
		return invalid("unknown message status %q", m.Status)
	}
	res, err := s.exec(ctx, nil, `UPDATE messages SET content = ?, reasoning = ?, status = ?,
		error_code = ?, error_message = ?, model = ?,
		prompt_tokens = ?, completion_tokens = ?, total_tokens = ?, updated_at = ?, cjk = ?,
		thoughts = ?, cache_read_tokens = ?, cache_write_tokens = ?, error_text = ?
		WHERE id = ?`,
		m.Content, m.Reasoning, m.Status, m.ErrorCode, m.ErrorMessage, m.Model,
		m.Usage.PromptTokens, m.Usage.CompletionTokens, m.Usage.TotalTokens, chat.Now(),
		hasCJK(m.Content, m.Reasoning), m.Thoughts, m.Usage.CacheReadTokens, m.Usage.CacheWriteTokens, textJSON(m.ErrorText), m.ID)
	if err == nil {
		err = mustAffect(res, "message", m.ID)
	}
	return wrap("update message", err)
}

// GetMessage returns one message, with its Versions and Version.
func (s *Store) GetMessage(ctx context.Context, id string) (chat.Message, error) {
	m, err := s.getMessage(ctx, nil, id)
	if err == nil {
		one := []chat.Message{m}
		err = s.withAttachments(ctx, nil, one)
		m = one[0]
	}
	return m, wrap("get message", err)
}

var getMessageSQL = "SELECT " + messageColumnsOf("m") + ", " + versionColumns + " FROM messages m WHERE m.id = ?"

func (s *Store) getMessage(ctx context.Context, tx *sql.Tx, id string) (chat.Message, error) {
	m, err := scanMessageVersions(s.queryRow(ctx, tx, getMessageSQL, id))
	if isNoRows(err) {
		return chat.Message{}, notFound("message", id)
	}
	return m, err
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
