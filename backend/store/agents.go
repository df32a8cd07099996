package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"airlock/backend/chat"
	"airlock/backend/uitext"
)

// agentConfig is the agents.config column: an agent without the fields
// that have their own columns.
func agentConfig(a chat.Agent) string {
	a.ID, a.Name, a.BuiltIn, a.CreatedAt, a.UpdatedAt = "", "", false, 0, 0
	b, _ := json.Marshal(a)
	return string(b)
}

func scanAgent(r scanner) (chat.Agent, error) {
	var (
		a      chat.Agent
		id     string
		name   string
		config string
		built  bool
		ca, ua int64
	)
	if err := r.Scan(&id, &name, &built, &config, &ca, &ua); err != nil {
		return a, err
	}
	// A damaged config keeps the defaults rather than hiding the agent.
	a = chat.DefaultAgent()
	a.BuiltIn = false
	_ = json.Unmarshal([]byte(config), &a)
	a.ID, a.Name, a.BuiltIn, a.CreatedAt, a.UpdatedAt = id, name, built, ca, ua
	return a.Normalize(), nil
}

const agentColumns = "id, name, builtin, config, created_at, updated_at"

// ListAgents returns every agent: the default first, then by name.
func (s *Store) ListAgents(ctx context.Context) ([]chat.Agent, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+agentColumns+" FROM agents ORDER BY id != 'default', builtin DESC, name COLLATE NOCASE, id")
	if err != nil {
		return nil, wrap("list agents", err)
	}
	defer rows.Close()
	out := []chat.Agent{}
	for rows.Next() {
		a, err := scanAgent(rows)
		if err != nil {
			return nil, wrap("list agents", err)
		}
		out = append(out, a)
	}
	return out, wrap("list agents", rows.Err())
}

// GetAgent returns one agent.
func (s *Store) GetAgent(ctx context.Context, id string) (chat.Agent, error) {
	return getAgent(ctx, s.db, id)
}

func getAgent(ctx context.Context, q querier, id string) (chat.Agent, error) {
	a, err := scanAgent(q.QueryRowContext(ctx, "SELECT "+agentColumns+" FROM agents WHERE id = ?", id))
	if isNoRows(err) {
		return chat.Agent{}, notFound("agent", id)
	}
	return a, wrap("get agent", err)
}

// SaveAgent adds an agent (no ID: it gets one) or changes one. A built-in
// agent can be changed but stays built in.
func (s *Store) SaveAgent(ctx context.Context, a chat.Agent) (chat.Agent, error) {
	var saved chat.Agent
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		var err error
		saved, err = saveAgent(ctx, tx, a)
		return err
	})
	return saved, wrap("save agent", err)
}

func saveAgent(ctx context.Context, tx *sql.Tx, a chat.Agent) (chat.Agent, error) {
	a = a.Normalize()
	if err := a.Check(); err != nil {
		return a, chat.Coded("invalid", chat.ErrInvalid, uitext.Of(err))
	}
	now := chat.Now()
	if a.ID == "" {
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM agents").Scan(&n); err != nil {
			return a, err
		}
		if n >= chat.MaxAgents {
			return a, refuse(txtTooManyAgents, "n", n)
		}
		a.ID = chat.NewID()
		_, err := tx.ExecContext(ctx, "INSERT INTO agents ("+agentColumns+") VALUES (?, ?, 0, ?, ?, ?)",
			a.ID, a.Name, agentConfig(a), now, now)
		if err != nil {
			return a, err
		}
		return getAgent(ctx, tx, a.ID)
	}
	res, err := tx.ExecContext(ctx, "UPDATE agents SET name = ?, config = ?, updated_at = ? WHERE id = ?",
		a.Name, agentConfig(a), now, a.ID)
	if err != nil {
		return a, err
	}
	if err := mustAffect(res, "agent", a.ID); err != nil {
		return a, err
	}
	return getAgent(ctx, tx, a.ID)
}

// DeleteAgent removes an agent that is not built in; its chats go back to
// the default agent.
func (s *Store) DeleteAgent(ctx context.Context, id string) error {
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		a, err := getAgent(ctx, tx, id)
		if err != nil {
			return err
		}
		if a.BuiltIn {
			return refuse(txtBuiltinAgent, "name", a.Name)
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM agents WHERE id = ?", id); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, "UPDATE chats SET agent_id = ? WHERE agent_id = ?", chat.DefaultAgentID, id)
		return err
	})
	return wrap("delete agent", err)
}

// ImportAgents adds agents read from a file, all or none. Each gets a new
// ID (an import never replaces an agent), and no provider: a provider is
// local to this machine.
func (s *Store) ImportAgents(ctx context.Context, as []chat.Agent) ([]chat.Agent, error) {
	if len(as) > chat.MaxAgents {
		return nil, refuse(txtImportTooManyAgents, "n", len(as), "max", chat.MaxAgents)
	}
	out := make([]chat.Agent, 0, len(as))
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		for i, a := range as {
			a.ID, a.BuiltIn, a.ProviderID, a.Model = "", false, "", ""
			saved, err := saveAgent(ctx, tx, a)
			if err != nil {
				var ce *chat.Error
				if errors.As(err, &ce) {
					return invalid("agent %d (%q): %s", i+1, a.Name, ce.Message)
				}
				return fmt.Errorf("agent %d: %w", i+1, err)
			}
			out = append(out, saved)
		}
		return nil
	})
	return out, wrap("import agents", err)
}

// agentOrDefault is the agent a new chat or an import refers to: the given
// one when it exists, else the default.
func agentOrDefault(ctx context.Context, q querier, id string) chat.Agent {
	if id != "" {
		if a, err := getAgent(ctx, q, id); err == nil {
			return a
		}
	}
	if a, err := getAgent(ctx, q, chat.DefaultAgentID); err == nil {
		return a
	}
	return chat.DefaultAgent()
}
