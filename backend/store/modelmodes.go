package store

import (
	"context"
	"database/sql"

	"airlock/backend/chat"
)

// GetModelMode returns what Auto knows about a provider's model: what it
// learned and the user's override. A model never seen has both empty.
func (s *Store) GetModelMode(ctx context.Context, providerID, model string) (chat.ModelMode, error) {
	m := chat.ModelMode{ProviderID: providerID, Model: model}
	err := s.db.QueryRowContext(ctx, "SELECT learned, reason, learned_at, override FROM model_modes WHERE provider_id = ? AND model = ?",
		providerID, model).Scan(&m.Learned, &m.Reason, &m.LearnedAt, &m.Override)
	if isNoRows(err) {
		return m, nil
	}
	return m, wrap("get model mode", err)
}

// ListModelModes returns everything Auto learned or was told.
func (s *Store) ListModelModes(ctx context.Context) ([]chat.ModelMode, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT provider_id, model, learned, reason, learned_at, override FROM model_modes ORDER BY provider_id, model")
	if err != nil {
		return nil, wrap("list model modes", err)
	}
	defer rows.Close()
	out := []chat.ModelMode{}
	for rows.Next() {
		var m chat.ModelMode
		if err := rows.Scan(&m.ProviderID, &m.Model, &m.Learned, &m.Reason, &m.LearnedAt, &m.Override); err != nil {
			return nil, wrap("list model modes", err)
		}
		out = append(out, m)
	}
	return out, wrap("list model modes", rows.Err())
}

// LearnModelMode records what Auto found out about a model, and why.
func (s *Store) LearnModelMode(ctx context.Context, providerID, model string, mode chat.ToolMode, reason string) (chat.ModelMode, error) {
	if mode != chat.ToolModeNative && mode != chat.ToolModeText {
		return chat.ModelMode{}, invalid("a model learns native or text, not %q", mode)
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO model_modes (provider_id, model, learned, reason, learned_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (provider_id, model) DO UPDATE SET learned = excluded.learned, reason = excluded.reason, learned_at = excluded.learned_at`,
		providerID, model, mode, reason, chat.Now())
	if err != nil {
		return chat.ModelMode{}, wrap("learn model mode", err)
	}
	return s.GetModelMode(ctx, providerID, model)
}

// SetModelModeOverride makes Auto use native or text for a model whatever
// it learned; "" goes back to what it learned (and "forget" also clears
// that, so Auto tries native again).
func (s *Store) SetModelModeOverride(ctx context.Context, providerID, model string, override chat.ToolMode, forget bool) (chat.ModelMode, error) {
	if override != "" && override != chat.ToolModeNative && override != chat.ToolModeText {
		return chat.ModelMode{}, invalid("override with native or text, not %q", override)
	}
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO model_modes (provider_id, model, override) VALUES (?, ?, ?)
			ON CONFLICT (provider_id, model) DO UPDATE SET override = excluded.override`, providerID, model, override); err != nil {
			return err
		}
		if forget {
			_, err := tx.ExecContext(ctx, "UPDATE model_modes SET learned = '', reason = '', learned_at = 0 WHERE provider_id = ? AND model = ?", providerID, model)
			return err
		}
		return nil
	})
	if err != nil {
		return chat.ModelMode{}, wrap("set model mode", err)
	}
	return s.GetModelMode(ctx, providerID, model)
}
