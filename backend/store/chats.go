package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"airlock/backend/chat"
)

// CreateChat starts a conversation with the agent and model used last (see
// NewChat). The title may be empty (the app can name the chat later from
// its first message).
func (s *Store) CreateChat(ctx context.Context, title string) (chat.Chat, error) {
	return s.NewChat(ctx, title, "")
}

// CreateChatWith starts a conversation with the given options, and the
// default agent: a tool mode or call format other than the agent's is the
// chat's own.
func (s *Store) CreateChatWith(ctx context.Context, title string, o chat.ChatOptions) (chat.Chat, error) {
	now := chat.Now()
	c := chat.Chat{ID: chat.NewID(), Title: strings.TrimSpace(title), CreatedAt: now, UpdatedAt: now, ChatOptions: o,
		ChatSetup: chat.ChatSetup{AgentID: chat.DefaultAgentID}}
	if c.ToolMode == "" {
		c.ToolMode = chat.ToolModeText // what a chat did before the choice existed
	}
	a := agentOrDefault(ctx, s.db, chat.DefaultAgentID)
	c.ToolModeOwn = c.ToolMode != a.ToolMode
	c.ParadigmOwn = o.Paradigm != a.Paradigm
	_, err := s.db.ExecContext(ctx,
		insertChat, chatValues(c)...)
	if err != nil {
		return chat.Chat{}, wrap("create chat", err)
	}
	return c, nil
}

// GetChat returns one chat.
func (s *Store) GetChat(ctx context.Context, id string) (chat.Chat, error) {
	return getChat(ctx, s.db, id)
}

// querier is what *sql.DB and *sql.Tx have in common.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

const chatColumns = "id, title, created_at, updated_at, pinned, leaf_id, paradigm, recognize_others, workspace_kind, workspace_dir, mcp_servers, tool_mode, agent_id, provider_id, model, tool_toggles, tool_mode_own, paradigm_own"

// insertChat writes a whole chat row.
const insertChat = "INSERT INTO chats (" + chatColumns + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

// selectChats reads chats with their agent's tool mode and call format as
// the agent is now (the default agent's when the chat's is gone).
const selectChats = "SELECT " + chatColumns + `,
	coalesce((SELECT json_extract(a.config, '$.toolMode') FROM agents a WHERE a.id = chats.agent_id),
		(SELECT json_extract(a.config, '$.toolMode') FROM agents a WHERE a.id = 'default'), ''),
	coalesce((SELECT json_extract(a.config, '$.paradigm') FROM agents a WHERE a.id = chats.agent_id),
		(SELECT json_extract(a.config, '$.paradigm') FROM agents a WHERE a.id = 'default'), '')
	FROM chats`

// scanChat reads a row of selectChats. A chat that did not choose its own
// tool mode (call format) takes its agent's: editing an agent changes the
// next turns of its chats, and the chat shows what they will use.
func scanChat(r scanner) (chat.Chat, error) {
	var c chat.Chat
	var servers sql.NullString
	var toggles, agentMode, agentParadigm string
	err := r.Scan(&c.ID, &c.Title, &c.CreatedAt, &c.UpdatedAt, &c.Pinned, &c.LeafID, &c.Paradigm, &c.RecognizeOthers, &c.WorkspaceKind, &c.WorkspaceDir, &servers, &c.ToolMode,
		&c.AgentID, &c.ProviderID, &c.Model, &toggles, &c.ToolModeOwn, &c.ParadigmOwn, &agentMode, &agentParadigm)
	if m, ok := chat.ParseToolMode(agentMode); ok && !c.ToolModeOwn {
		c.ToolMode = m
	}
	if validParadigm(agentParadigm) && !c.ParadigmOwn {
		c.Paradigm = agentParadigm
	}
	if err == nil && servers.Valid {
		c.MCPServers = []string{}
		_ = json.Unmarshal([]byte(servers.String), &c.MCPServers) // written by serverList: a bad value offers none
	}
	if err == nil && toggles != "" {
		_ = json.Unmarshal([]byte(toggles), &c.ToolToggles) // written by toggleList: a bad value toggles nothing
	}
	return c, err
}

func chatValues(c chat.Chat) []any {
	if c.ToolMode == "" {
		c.ToolMode = chat.ToolModeText // what a chat did before the choice existed
	}
	if c.AgentID == "" {
		c.AgentID = chat.DefaultAgentID
	}
	return []any{c.ID, c.Title, c.CreatedAt, c.UpdatedAt, c.Pinned, c.LeafID, c.Paradigm, c.RecognizeOthers, c.WorkspaceKind, c.WorkspaceDir, serverList(c.MCPServers), c.ToolMode,
		c.AgentID, c.ProviderID, c.Model, toggleList(c.ToolToggles), c.ToolModeOwn, c.ParadigmOwn}
}

func validParadigm(p string) bool { return p == "json" || p == "xml" || p == "vcp" }

// toggleList is the tool_toggles column: ” for none.
func toggleList(t map[string]bool) string {
	if len(t) == 0 {
		return ""
	}
	b, _ := json.Marshal(t)
	return string(b)
}

// serverList is the mcp_servers column: NULL for every enabled server.
func serverList(names []string) sql.NullString {
	if names == nil {
		return sql.NullString{}
	}
	b, _ := json.Marshal(names)
	return sql.NullString{String: string(b), Valid: true}
}

func getChat(ctx context.Context, q querier, id string) (chat.Chat, error) {
	c, err := scanChat(q.QueryRowContext(ctx, selectChats+" WHERE id = ?", id))
	if isNoRows(err) {
		return chat.Chat{}, notFound("chat", id)
	}
	if err != nil {
		return chat.Chat{}, fmt.Errorf("get chat %s: %w", id, err)
	}
	return c, nil
}

// ListChats returns every chat not in the Trash: pinned ones first, then by most recent
// activity.
func (s *Store) ListChats(ctx context.Context) ([]chat.Chat, error) {
	rows, err := s.db.QueryContext(ctx,
		selectChats+" WHERE deleted_at = 0 ORDER BY pinned DESC, updated_at DESC, id DESC")
	if err != nil {
		return nil, wrap("list chats", err)
	}
	defer rows.Close()
	chats := []chat.Chat{} // the UI wants [], not null
	for rows.Next() {
		c, err := scanChat(rows)
		if err != nil {
			return nil, wrap("list chats", err)
		}
		chats = append(chats, c)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("list chats", err)
	}
	return chats, nil
}

// RenameChat sets a chat's title. Renaming is not activity: updated_at stays.
func (s *Store) RenameChat(ctx context.Context, id, title string) (chat.Chat, error) {
	title = strings.TrimSpace(title)
	if title == "" {
		return chat.Chat{}, refuse(txtEmptyTitle)
	}
	var c chat.Chat
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE chats SET title = ? WHERE id = ?", title, id)
		if err != nil {
			return err
		}
		if err := mustAffect(res, "chat", id); err != nil {
			return err
		}
		c, err = getChat(ctx, tx, id)
		return err
	})
	if err != nil {
		return chat.Chat{}, wrap("rename chat", err)
	}
	return c, nil
}

// SetPinned pins a chat to the top of the list, or unpins it. Pinning is
// not activity: updated_at stays.
func (s *Store) SetPinned(ctx context.Context, id string, pinned bool) (chat.Chat, error) {
	var c chat.Chat
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE chats SET pinned = ? WHERE id = ?", pinned, id)
		if err != nil {
			return err
		}
		if err := mustAffect(res, "chat", id); err != nil {
			return err
		}
		c, err = getChat(ctx, tx, id)
		return err
	})
	return c, wrap("pin chat", err)
}

// DeleteChat deletes a chat for good, whether or not it is in the Trash:
// everything it owns goes with it (ON DELETE CASCADE), then the attachment
// bytes no other message uses. The app's Delete moves a chat to the Trash
// instead (trash.go).
func (s *Store) DeleteChat(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM chats WHERE id = ?", id)
	if err == nil {
		err = mustAffect(res, "chat", id)
	}
	if err == nil {
		err = s.dropUnusedBlobs(ctx) // what only this chat used
	}
	return wrap("delete chat", err)
}

// SetChatOptions changes how a chat offers and reads tool calls, and where
// its tools work. A tool mode (call format) other than its agent's is the
// chat's own choice and wins over the agent's from then on; its agent's
// value makes the chat follow the agent again.
func (s *Store) SetChatOptions(ctx context.Context, id string, o chat.ChatOptions) (chat.Chat, error) {
	if !validParadigm(o.Paradigm) {
		return chat.Chat{}, invalid("unknown tool-call paradigm %q (want json, xml or vcp)", o.Paradigm)
	}
	if o.WorkspaceKind == "" {
		o.WorkspaceKind = "scratch"
	}
	switch o.WorkspaceKind {
	case "scratch":
		o.WorkspaceDir = ""
	case "folder", "overlay":
		if strings.TrimSpace(o.WorkspaceDir) == "" {
			return chat.Chat{}, refuse(txtNeedsFolder, "kind", o.WorkspaceKind)
		}
	default:
		return chat.Chat{}, invalid("unknown workspace kind %q (want scratch, folder or overlay)", o.WorkspaceKind)
	}
	if o.ToolMode == "" {
		o.ToolMode = chat.ToolModeText
	}
	if _, ok := chat.ParseToolMode(string(o.ToolMode)); !ok {
		return chat.Chat{}, invalid("unknown tool mode %q (want text, native or auto)", o.ToolMode)
	}
	if err := chat.CheckServerList(o.MCPServers); err != nil {
		return chat.Chat{}, invalid("%s", err.Error())
	}
	var c chat.Chat
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		var agentID string
		if err := tx.QueryRowContext(ctx, "SELECT agent_id FROM chats WHERE id = ?", id).Scan(&agentID); err != nil {
			if isNoRows(err) {
				return notFound("chat", id)
			}
			return err
		}
		a := agentOrDefault(ctx, tx, agentID)
		res, err := tx.ExecContext(ctx, `UPDATE chats SET paradigm = ?, recognize_others = ?, workspace_kind = ?, workspace_dir = ?, mcp_servers = ?, tool_mode = ?,
			tool_mode_own = ?, paradigm_own = ? WHERE id = ?`,
			o.Paradigm, o.RecognizeOthers, o.WorkspaceKind, o.WorkspaceDir, serverList(o.MCPServers), o.ToolMode,
			o.ToolMode != a.ToolMode, o.Paradigm != a.Paradigm, id)
		if err != nil {
			return err
		}
		if err := mustAffect(res, "chat", id); err != nil {
			return err
		}
		c, err = getChat(ctx, tx, id)
		return err
	})
	return c, wrap("set chat options", err)
}
