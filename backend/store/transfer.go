package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"airlock/backend/chat"
	"airlock/backend/workspace"
)

// ChatData is everything one chat holds: what an export writes, an import
// reads and a duplicate copies. Provider settings, API keys and always-allow
// rules are not part of it.
type ChatData struct {
	Chat chat.Chat
	// Messages holds every version, oldest first by (created_at, id), each
	// with its ParentID. Versions and Version are not filled in.
	Messages []chat.Message
	// Calls are the tool calls of those messages, by (created_at,
	// message_id, idx, id).
	Calls []chat.Call
	// Scratch are the files of the chat's scratch workspace, by path.
	Scratch []workspace.File
	// Audit is the chat's audit trail, oldest first (not copied by
	// DuplicateChat: it is the history of the original's calls).
	Audit []chat.AuditEntry
	// Files are the files attached to messages, with their bytes, by
	// message ID, in order.
	Files map[string][]chat.AttachmentData
	// Agent is the chat's agent by value (an import elsewhere recreates it
	// when that machine does not have it); nil on import: the default.
	Agent *chat.Agent
}

// ReadChats reads whole chats for an export, from one consistent snapshot
// (a read transaction: a stream writing meanwhile is not blocked). With no
// ids it reads every chat not in the Trash ("export everything" leaves the
// Trash out: it holds what the user deleted), in ListChats order; chats
// named by id are read wherever they are.
func (s *Store) ReadChats(ctx context.Context, ids []string) ([]ChatData, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, wrap("read chats", err)
	}
	defer tx.Rollback()
	if ids == nil {
		rows, err := tx.QueryContext(ctx, "SELECT id FROM chats WHERE deleted_at = 0 ORDER BY pinned DESC, updated_at DESC, id DESC")
		if err != nil {
			return nil, wrap("read chats", err)
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, wrap("read chats", err)
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, wrap("read chats", err)
		}
	}
	out := make([]ChatData, 0, len(ids))
	for _, id := range ids {
		d, err := readChat(ctx, tx, id)
		if err != nil {
			return nil, wrap("read chats", err)
		}
		out = append(out, d)
	}
	return out, nil
}

func readChat(ctx context.Context, tx *sql.Tx, id string) (ChatData, error) {
	var d ChatData
	var err error
	if d.Chat, err = getChat(ctx, tx, id); err != nil {
		return d, err
	}
	ag := agentOrDefault(ctx, tx, d.Chat.AgentID)
	d.Agent = &ag
	rows, err := tx.QueryContext(ctx, "SELECT "+messageColumns+" FROM messages WHERE chat_id = ? ORDER BY created_at, id", id)
	if err != nil {
		return d, err
	}
	d.Messages = []chat.Message{}
	for rows.Next() {
		m, err := scanMessage(rows)
		if err != nil {
			rows.Close()
			return d, err
		}
		d.Messages = append(d.Messages, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return d, err
	}
	if d.Calls, err = queryCalls(ctx, tx, "SELECT "+callColumns+" FROM tool_calls WHERE chat_id = ? ORDER BY created_at, message_id, idx, id", id); err != nil {
		return d, err
	}
	if d.Scratch, err = loadScratch(ctx, tx, id); err != nil {
		return d, err
	}
	if d.Files, err = chatFiles(ctx, tx, id); err != nil {
		return d, err
	}
	d.Audit, err = chatAudit(ctx, tx, id)
	return d, err
}

// ImportResult counts what an import added and what it found already there.
type ImportResult struct {
	ChatsAdded      int `json:"chatsAdded"`
	ChatsMerged     int `json:"chatsMerged"` // already here: only missing messages and calls were added
	MessagesAdded   int `json:"messagesAdded"`
	MessagesSkipped int `json:"messagesSkipped"` // already here (same ID)
	CallsAdded      int `json:"callsAdded"`
	CallsSkipped    int `json:"callsSkipped"`
	FilesAdded      int `json:"filesAdded"`
	AuditAdded      int `json:"auditAdded"`   // rows of the audit trail
	AuditSkipped    int `json:"auditSkipped"` // already here (same uid)
}

// ImportChats stores chats read from an export, all in one transaction: if
// anything is wrong nothing is stored.
//
// IDs are globally unique, so a row whose ID is already here is the same
// row: it is kept as it is (the local copy wins) and counted as skipped, so
// importing a file twice adds nothing the second time, and importing a
// newer export of a chat adds just its new messages and calls. For a chat
// already here, the title, options, pin and scratch files stay local (and
// it leaves the Trash if it was there); its
// active path moves to the imported one only when that continues the local
// one (the local leaf lies on the imported path). An ID that is here but
// in another chat (or a message ID used by a call's message in another
// chat) is a conflict: the import fails, naming it.
//
// Messages still "streaming" are stored as "interrupted", and calls that
// were approved or running as "interrupted": nothing in this app is
// finishing them.
func (s *Store) ImportChats(ctx context.Context, data []ChatData) (ImportResult, error) {
	var r ImportResult
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		return s.bulkInsert(ctx, tx, func() error {
			for i := range data {
				if err := s.importChat(ctx, tx, data[i], &r); err != nil {
					return fmt.Errorf("chat %s: %w", data[i].Chat.ID, err)
				}
			}
			return nil
		})
	})
	if err != nil {
		return ImportResult{}, wrap("import", err)
	}
	return r, nil
}

func (s *Store) importChat(ctx context.Context, tx *sql.Tx, d ChatData, r *ImportResult) error {
	c := d.Chat
	if strings.TrimSpace(c.ID) == "" {
		return invalid("a chat has no id")
	}
	if c.Paradigm == "" {
		c.Paradigm = "json"
	}
	if c.WorkspaceKind == "" {
		c.WorkspaceKind = "scratch"
	}
	local, err := getChat(ctx, tx, c.ID)
	exists := err == nil
	if err != nil && !isNotFound(err) {
		return err
	}
	if exists {
		r.ChatsMerged++
		// Imported on purpose: a chat that was in the Trash comes back.
		if _, err := tx.ExecContext(ctx, "UPDATE chats SET deleted_at = 0 WHERE id = ?", c.ID); err != nil {
			return err
		}
	} else {
		r.ChatsAdded++
		if c.AgentID, err = importedAgent(ctx, tx, d.Agent); err != nil {
			return err
		}
		// What the chat used stays: a value other than its agent's here is
		// the chat's own.
		if c.ToolMode == "" {
			c.ToolMode = chat.ToolModeText // what a chat did before the choice existed
		}
		a := agentOrDefault(ctx, tx, c.AgentID)
		c.ToolModeOwn = c.ToolModeOwn || c.ToolMode != a.ToolMode
		c.ParadigmOwn = c.ParadigmOwn || c.Paradigm != a.Paradigm
		if _, err := tx.ExecContext(ctx, insertChat, chatValues(c)...); err != nil {
			return err
		}
	}
	for _, m := range d.Messages {
		if m.ChatID != c.ID {
			return invalid("message %s says it belongs to chat %q", m.ID, m.ChatID)
		}
		if m.Status == chat.StatusStreaming {
			m.Status = chat.StatusInterrupted
		}
		var owner string
		err := s.queryRow(ctx, tx, "SELECT chat_id FROM messages WHERE id = ?", m.ID).Scan(&owner)
		switch {
		case err == nil && owner != c.ID:
			return invalid("message %s is already in another chat (%s)", m.ID, owner)
		case err == nil:
			r.MessagesSkipped++
			continue
		case !isNoRows(err):
			return err
		}
		if !validRole(m.Role) || !validStatus(m.Status) || !validKind(m.Kind) {
			return invalid("message %s: role %q, kind %q or status %q is not valid", m.ID, m.Role, m.Kind, m.Status)
		}
		if _, err := s.exec(ctx, tx, insertMessage, messageValues(m)...); err != nil {
			return fmt.Errorf("message %s: %w", m.ID, err)
		}
		if err := s.insertAttachments(ctx, tx, m.ID, 0, d.Files[m.ID]); err != nil {
			return fmt.Errorf("message %s: %w", m.ID, err)
		}
		r.MessagesAdded++
	}
	for _, cl := range d.Calls {
		if cl.ChatID != c.ID {
			return invalid("tool call %s says it belongs to chat %q", cl.ID, cl.ChatID)
		}
		if cl.State == chat.CallApproved || cl.State == chat.CallRunning {
			cl.State = chat.CallInterrupted
		}
		if cl.State == chat.CallPending && (cl.DecidedBy != "" || cl.DecidedAt != 0) {
			return invalid("tool call %s is pending, so nobody has decided it, but it says %q did", cl.ID, cl.DecidedBy)
		}
		var owner string
		err := s.queryRow(ctx, tx, "SELECT chat_id FROM tool_calls WHERE id = ?", cl.ID).Scan(&owner)
		switch {
		case err == nil && owner != c.ID:
			return invalid("tool call %s is already in another chat (%s)", cl.ID, owner)
		case err == nil:
			r.CallsSkipped++
			continue
		case !isNoRows(err):
			return err
		}
		if err := s.checkInChat(ctx, tx, cl.MessageID, c.ID); err != nil {
			return fmt.Errorf("tool call %s: %w", cl.ID, err)
		}
		if _, err := s.exec(ctx, tx, insertCall, callValues(cl)...); err != nil {
			return fmt.Errorf("tool call %s: %w", cl.ID, err)
		}
		r.CallsAdded++
	}
	if err := s.importAudit(ctx, tx, c.ID, d.Audit, r); err != nil {
		return err
	}
	if !exists {
		if c.LeafID != "" {
			if err := s.checkInChat(ctx, tx, c.LeafID, c.ID); err != nil {
				return fmt.Errorf("leaf: %w", err)
			}
		}
		if err := insertScratch(ctx, tx, c.ID, d.Scratch); err != nil {
			return err
		}
		r.FilesAdded += len(d.Scratch)
		return nil
	}
	// Merged: follow the imported path when it continues the local one.
	if c.LeafID != "" && c.LeafID != local.LeafID {
		ids, err := s.pathIDs(ctx, tx, c.ID, c.LeafID)
		if err != nil {
			return err
		}
		continues := local.LeafID == ""
		for _, id := range ids {
			continues = continues || id == local.LeafID
		}
		if continues && len(ids) > 0 && ids[len(ids)-1] == c.LeafID {
			if _, err := tx.ExecContext(ctx, "UPDATE chats SET leaf_id = ? WHERE id = ?", c.LeafID, c.ID); err != nil {
				return err
			}
		}
	}
	if c.UpdatedAt > local.UpdatedAt {
		_, err = tx.ExecContext(ctx, "UPDATE chats SET updated_at = ? WHERE id = ?", c.UpdatedAt, c.ID)
	}
	return err
}

// bulkInsert runs fn, which only inserts messages and tool calls (never
// updates or deletes them), with search indexing paused, then indexes
// everything it inserted in one statement per index. See search_pause in
// migration 0004: it makes an import of 10,000 messages ~4x faster.
func (s *Store) bulkInsert(ctx context.Context, tx *sql.Tx, fn func() error) error {
	var before int64
	if err := tx.QueryRowContext(ctx, "SELECT coalesce(max(doc), 0) FROM search_docs").Scan(&before); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO search_pause (one) VALUES (1)"); err != nil {
		return err
	}
	if err := fn(); err != nil {
		return err
	}
	// New documents get rowids above every existing one.
	for _, q := range []string{
		"INSERT INTO search_fts (rowid, body, aux) SELECT doc, body, aux FROM search_content WHERE doc > ?",
		"INSERT INTO search_cjk (rowid, body, aux) SELECT doc, body, aux FROM search_content_cjk WHERE doc > ?",
	} {
		if _, err := tx.ExecContext(ctx, q, before); err != nil {
			return err
		}
	}
	_, err := tx.ExecContext(ctx, "DELETE FROM search_pause")
	return err
}

// isNotFound reports a domain not-found error.
func isNotFound(err error) bool {
	var ce *chat.Error
	return errors.As(err, &ce) && errors.Is(err, chat.ErrNotFound)
}

// DuplicateChat copies a chat: its active path (not the other versions),
// the tool calls of those messages with their decisions and results, its
// options and its scratch files, all under new IDs. The copy is titled
// "<title> (copy)", is not pinned, and is the most recently active chat.
func (s *Store) DuplicateChat(ctx context.Context, id string) (chat.Chat, error) {
	var out chat.Chat
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		d, err := readChat(ctx, tx, id)
		if err != nil {
			return err
		}
		onPath, err := s.pathIDs(ctx, tx, id, d.Chat.LeafID)
		if err != nil {
			return err
		}
		newID := map[string]string{}
		for _, mid := range onPath {
			newID[mid] = chat.NewID()
		}
		now := chat.Now()
		c := d.Chat
		c.ID = chat.NewID()
		c.Title = strings.TrimSpace(strings.TrimSpace(c.Title) + " (copy)")
		c.CreatedAt, c.UpdatedAt, c.Pinned = now, now, false
		c.LeafID = newID[d.Chat.LeafID]
		copied := ChatData{Chat: c, Scratch: d.Scratch, Files: map[string][]chat.AttachmentData{}}
		for _, m := range d.Messages {
			nid, ok := newID[m.ID]
			if !ok {
				continue
			}
			copied.Files[nid] = d.Files[m.ID]
			m.ID, m.ChatID, m.ParentID = nid, c.ID, newID[m.ParentID]
			copied.Messages = append(copied.Messages, m)
		}
		for _, cl := range d.Calls {
			mid, ok := newID[cl.MessageID]
			if !ok {
				continue
			}
			cl.ID, cl.ChatID, cl.MessageID = chat.NewID(), c.ID, mid
			copied.Calls = append(copied.Calls, cl)
		}
		var r ImportResult
		if err := s.bulkInsert(ctx, tx, func() error { return s.importChat(ctx, tx, copied, &r) }); err != nil {
			return err
		}
		out, err = getChat(ctx, tx, c.ID)
		return err
	})
	return out, wrap("duplicate chat", err)
}

// importedAgent is the local agent an imported chat uses: the one with the
// file's agent's ID when it is here, else the file's agent added under that
// ID (so importing again finds it); the default when there is none or it
// does not check out.
func importedAgent(ctx context.Context, tx *sql.Tx, a *chat.Agent) (string, error) {
	if a == nil || a.ID == "" || len(a.ID) > 64 {
		return chat.DefaultAgentID, nil
	}
	if _, err := getAgent(ctx, tx, a.ID); err == nil {
		return a.ID, nil
	}
	ag := a.Normalize()
	ag.ProviderID, ag.Model, ag.BuiltIn = "", "", false
	if ag.Check() != nil {
		return chat.DefaultAgentID, nil
	}
	now := chat.Now()
	if _, err := tx.ExecContext(ctx, "INSERT INTO agents ("+agentColumns+") VALUES (?, ?, 0, ?, ?, ?)",
		ag.ID, ag.Name, agentConfig(ag), now, now); err != nil {
		return "", err
	}
	return ag.ID, nil
}
