package store

import (
	"context"
	"database/sql"
	"net/url"
	"strconv"
	"strings"

	"airlock/backend/chat"
	"airlock/backend/redact"
)

const providerColumns = "id, name, base_url, api_key, model, demo, kind, thinking_budget"

func scanProvider(r scanner) (chat.Provider, error) {
	var p chat.Provider
	err := r.Scan(&p.ID, &p.Name, &p.BaseURL, &p.APIKey, &p.Model, &p.Demo, &p.Kind, &p.ThinkingBudget)
	return p, err
}

// ListProviders returns the demo provider first, then the rest by name.
func (s *Store) ListProviders(ctx context.Context) ([]chat.Provider, error) {
	rows, err := s.db.QueryContext(ctx,
		"SELECT "+providerColumns+" FROM providers ORDER BY demo DESC, name COLLATE NOCASE, id")
	if err != nil {
		return nil, wrap("list providers", err)
	}
	defer rows.Close()
	ps := []chat.Provider{}
	for rows.Next() {
		p, err := scanProvider(rows)
		if err != nil {
			return nil, wrap("list providers", err)
		}
		ps = append(ps, p)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("list providers", err)
	}
	rows.Close()
	for i := range ps { // after the rows: a keychain call may be slow
		ps[i] = s.withKey(ps[i])
	}
	return ps, nil
}

// GetProvider returns one provider.
func (s *Store) GetProvider(ctx context.Context, id string) (chat.Provider, error) {
	p, err := getProvider(ctx, s.db, id)
	return s.withKey(p), err
}

func getProvider(ctx context.Context, q querier, id string) (chat.Provider, error) {
	p, err := scanProvider(q.QueryRowContext(ctx,
		"SELECT "+providerColumns+" FROM providers WHERE id = ?", id))
	if isNoRows(err) {
		return chat.Provider{}, notFound("provider", id)
	}
	if err != nil {
		return chat.Provider{}, wrap("get provider", err)
	}
	return p, nil
}

// SaveProvider inserts p when it has no ID (giving it one) and updates it
// otherwise. The demo provider is built in: only its Model and Kind (the demo
// server speaks both wires) can change, and
// its other fields are ignored. The Demo flag cannot be set from outside.
func (s *Store) SaveProvider(ctx context.Context, p chat.Provider) (chat.Provider, error) {
	p.Name = strings.TrimSpace(p.Name)
	p.BaseURL = strings.TrimSpace(p.BaseURL)
	p.APIKey = strings.TrimSpace(p.APIKey) // pasted keys often carry a newline
	p.Model = strings.TrimSpace(p.Model)
	p.Kind = p.APIKind()
	if b := p.ThinkingBudget; b != 0 && (b < chat.MinThinkingBudget || b > chat.MaxThinkingBudget) {
		return chat.Provider{}, refuse(txtThinkingBudget, "budget", b, "min", chat.MinThinkingBudget, "max", chat.MaxThinkingBudget)
	}

	if p.ID == chat.DemoProviderID {
		err := s.withTx(ctx, func(tx *sql.Tx) error {
			res, err := tx.ExecContext(ctx, "UPDATE providers SET model = ?, kind = ?, thinking_budget = ? WHERE id = ?", p.Model, p.Kind, p.ThinkingBudget, p.ID)
			if err != nil {
				return err
			}
			if err := mustAffect(res, "provider", p.ID); err != nil {
				return err
			}
			p, err = getProvider(ctx, tx, p.ID)
			return err
		})
		if err != nil {
			return chat.Provider{}, wrap("save provider", err)
		}
		return s.withKey(p), nil
	}

	if p.Name == "" {
		return chat.Provider{}, refuse(txtProviderName)
	}
	if p.BaseURL == "" {
		return chat.Provider{}, refuse(txtProviderURL)
	}
	if u, err := url.Parse(p.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return chat.Provider{}, refuse(txtProviderScheme, "url", strconv.Quote(redact.URL(p.BaseURL)))
	}
	p.Demo = false

	if p.ID == "" {
		p.ID = chat.NewID()
		_, err := s.db.ExecContext(ctx, `INSERT INTO providers (id, name, base_url, api_key, model, demo, created_at, kind, thinking_budget)
			VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)`, p.ID, p.Name, p.BaseURL, s.storedKey(p, ""), p.Model, chat.Now(), p.Kind, p.ThinkingBudget)
		if err != nil {
			s.forgetKey(inKeyring, p.ID)
			return chat.Provider{}, wrap("add provider", err)
		}
		return p, nil
	}
	res, err := s.db.ExecContext(ctx,
		"UPDATE providers SET name = ?, base_url = ?, api_key = ?, model = ?, kind = ?, thinking_budget = ? WHERE id = ? AND demo = 0",
		p.Name, p.BaseURL, s.storedKey(p, apiKeyColumn(ctx, s.db, p.ID)), p.Model, p.Kind, p.ThinkingBudget, p.ID)
	if err == nil {
		err = mustAffect(res, "provider", p.ID)
	}
	if err != nil {
		return chat.Provider{}, wrap("save provider", err)
	}
	return s.withKey(p), nil
}

// DeleteProvider removes a provider. The demo provider stays. If the deleted
// provider was the active one, the demo becomes active, in the same
// transaction, so settings never point at a missing provider.
func (s *Store) DeleteProvider(ctx context.Context, id string) error {
	if id == chat.DemoProviderID {
		return refuse(txtDemoProvider)
	}
	before := apiKeyColumn(ctx, s.db, id)
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "DELETE FROM providers WHERE id = ?", id)
		if err != nil {
			return err
		}
		if err := mustAffect(res, "provider", id); err != nil {
			return err
		}
		// Its chats go back to the active provider ('').
		if _, err := tx.ExecContext(ctx, "UPDATE chats SET provider_id = '', model = '' WHERE provider_id = ?", id); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, "UPDATE settings SET value = ? WHERE key = ? AND value = ?",
			chat.DemoProviderID, keyActiveProvider, id)
		return err
	})
	if err == nil {
		s.forgetKey(before, id)
	}
	return wrap("delete provider", err)
}
