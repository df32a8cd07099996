package store

import (
	"context"
	"database/sql"
	"errors"

	"airlock/backend/chat"
)

// An MCP server's sign-in (its OAuth grant, opaque JSON here) is kept like
// an API key: in the system keychain ("mcp-grant/<server>") when there is
// one, else in the database file (readable by its owner only). Never in
// exports.

func grantName(server string) string { return "mcp-grant/" + server }

// MCPGrant returns a server's saved grant ("" when it is signed out).
func (s *Store) MCPGrant(ctx context.Context, server string) (string, error) {
	var v string
	err := s.db.QueryRowContext(ctx, "SELECT grant_json FROM mcp_grants WHERE server = ?", server).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", wrap("read an MCP sign-in", err)
	}
	if v != inKeyring {
		return v, nil
	}
	k := s.keyring()
	if k == nil {
		return "", nil
	}
	g, err := k.Get(grantName(server))
	if errors.Is(err, ErrNoKey) {
		return "", nil
	}
	return g, err
}

// SetMCPGrant keeps a server's grant; "" forgets it (sign-out), erasing
// it from the keychain and, with secure_delete, from the file.
func (s *Store) SetMCPGrant(ctx context.Context, server, grant string) error {
	k := s.keyring()
	if grant == "" {
		if k != nil {
			_ = k.Delete(grantName(server))
		}
		return wrap("forget an MCP sign-in", s.withSecureDelete(ctx, func(c *sql.Conn) error {
			_, err := c.ExecContext(ctx, "DELETE FROM mcp_grants WHERE server = ?", server)
			return err
		}))
	}
	stored := grant
	if k != nil && k.Set(grantName(server), grant) == nil {
		stored = inKeyring
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO mcp_grants (server, grant_json, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (server) DO UPDATE SET grant_json = excluded.grant_json, updated_at = excluded.updated_at`, server, stored, chat.Now())
	return wrap("save an MCP sign-in", err)
}

// withSecureDelete runs f on one connection with secure_delete on, then
// truncates the WAL, so what f deleted is zeroed in the file.
func (s *Store) withSecureDelete(ctx context.Context, f func(*sql.Conn) error) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA secure_delete = ON"); err != nil {
		return err
	}
	defer conn.ExecContext(context.Background(), "PRAGMA secure_delete = OFF") //nolint:errcheck
	if err := f(conn); err != nil {
		return err
	}
	_, err = conn.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	return err
}

// HasMCPGrant says whether a server has a saved sign-in, without reading
// it (no keychain round trip).
func (s *Store) HasMCPGrant(ctx context.Context, server string) bool {
	var n int
	_ = s.db.QueryRowContext(ctx, "SELECT count(*) FROM mcp_grants WHERE server = ?", server).Scan(&n)
	return n > 0
}
