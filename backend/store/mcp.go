package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"

	"airlock/backend/chat"
)

// MCPServer is an MCP server as stored. Config is its settings as JSON,
// which the store keeps without reading; it may hold secrets (env values,
// headers), so nothing here goes into exports.
type MCPServer struct {
	Name      string
	Enabled   bool
	Config    json.RawMessage
	CreatedAt int64
	UpdatedAt int64
}

// ListMCPServers returns the servers in the order they were added.
func (s *Store) ListMCPServers(ctx context.Context) ([]MCPServer, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT name, enabled, config, created_at, updated_at FROM mcp_servers ORDER BY created_at, name")
	if err != nil {
		return nil, wrap("list MCP servers", err)
	}
	defer rows.Close()
	out := []MCPServer{}
	for rows.Next() {
		var m MCPServer
		var cfg string
		if err := rows.Scan(&m.Name, &m.Enabled, &cfg, &m.CreatedAt, &m.UpdatedAt); err != nil {
			return nil, wrap("list MCP servers", err)
		}
		m.Config = json.RawMessage(cfg)
		out = append(out, m)
	}
	return out, wrap("list MCP servers", rows.Err())
}

// SaveMCPServer adds a server, or replaces the one named previous (which
// may be its old name: a rename keeps its place in the list). An empty
// previous adds; adding a name that exists is refused.
func (s *Store) SaveMCPServer(ctx context.Context, m MCPServer, previous string) (MCPServer, error) {
	m.Name = strings.TrimSpace(m.Name)
	if m.Name == "" {
		return m, invalid("an MCP server needs a name")
	}
	if !json.Valid(m.Config) {
		return m, invalid("the settings of MCP server %q are not valid JSON", m.Name)
	}
	now := chat.Now()
	m.UpdatedAt = now
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		if m.Name != previous {
			var n int
			if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM mcp_servers WHERE name = ?", m.Name).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return chat.Errorf("duplicate_server", chat.ErrInvalid, "There is already an MCP server named %q.", m.Name)
			}
		}
		if previous == "" {
			m.CreatedAt = now
			_, err := tx.ExecContext(ctx, "INSERT INTO mcp_servers (name, enabled, config, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
				m.Name, m.Enabled, string(m.Config), m.CreatedAt, m.UpdatedAt)
			return err
		}
		res, err := tx.ExecContext(ctx, "UPDATE mcp_servers SET name = ?, enabled = ?, config = ?, updated_at = ? WHERE name = ?",
			m.Name, m.Enabled, string(m.Config), m.UpdatedAt, previous)
		if err != nil {
			return err
		}
		if err := mustAffect(res, "MCP server", previous); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, "SELECT created_at FROM mcp_servers WHERE name = ?", m.Name).Scan(&m.CreatedAt)
	})
	return m, wrap("save MCP server", err)
}

// SetMCPServerEnabled turns a server on or off.
func (s *Store) SetMCPServerEnabled(ctx context.Context, name string, enabled bool) error {
	res, err := s.db.ExecContext(ctx, "UPDATE mcp_servers SET enabled = ?, updated_at = ? WHERE name = ?", enabled, chat.Now(), name)
	if err == nil {
		err = mustAffect(res, "MCP server", name)
	}
	return wrap("enable MCP server", err)
}

// DeleteMCPServer removes a server. Chats that named it keep the name and
// offer nothing for it.
func (s *Store) DeleteMCPServer(ctx context.Context, name string) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM mcp_servers WHERE name = ?", name)
	if err == nil {
		err = mustAffect(res, "MCP server", name)
	}
	return wrap("delete MCP server", err)
}
