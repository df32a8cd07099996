package store

import (
	"context"
	"strings"

	"airlock/backend/chat"
)

const windowColumns = `provider_id, model, discovered, discovered_max, discovered_loaded, discovered_output, source, note,
	discovered_at, learned, learned_reason, learned_at, user_window, user_max_output, updated_at`

func scanWindow(r scanner) (chat.ModelWindow, error) {
	var m chat.ModelWindow
	d := &m.Discovered
	err := r.Scan(&m.ProviderID, &m.Model, &d.Tokens, &d.ModelMax, &d.Loaded, &d.MaxOutput, &d.Source, &d.Note,
		&m.DiscoveredAt, &m.Learned, &m.LearnedReason, &m.LearnedAt, &m.UserWindow, &m.UserMaxOutput, &m.UpdatedAt)
	return m, err
}

// GetModelWindow returns what is known of a provider's model window. A
// model never seen has everything zero (DiscoveredAt 0: never discovered).
func (s *Store) GetModelWindow(ctx context.Context, providerID, model string) (chat.ModelWindow, error) {
	m, err := scanWindow(s.db.QueryRowContext(ctx, "SELECT "+windowColumns+" FROM model_windows WHERE provider_id = ? AND model = ?",
		providerID, model))
	if isNoRows(err) {
		return chat.ModelWindow{ProviderID: providerID, Model: model}, nil
	}
	return m, wrap("get model window", err)
}

// ListModelWindows returns every model window remembered.
func (s *Store) ListModelWindows(ctx context.Context) ([]chat.ModelWindow, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+windowColumns+" FROM model_windows ORDER BY provider_id, model")
	if err != nil {
		return nil, wrap("list model windows", err)
	}
	defer rows.Close()
	out := []chat.ModelWindow{}
	for rows.Next() {
		m, err := scanWindow(rows)
		if err != nil {
			return nil, wrap("list model windows", err)
		}
		out = append(out, m)
	}
	return out, wrap("list model windows", rows.Err())
}

// RecordModelWindow keeps what a discovery found. forget also drops what an
// overflow taught (a re-detection the user asked for: the server may have
// been given a larger window since).
func (s *Store) RecordModelWindow(ctx context.Context, providerID, model string, w chat.Window, forget bool) (chat.ModelWindow, error) {
	if err := checkKey(providerID, model); err != nil {
		return chat.ModelWindow{}, err
	}
	if w.Tokens != 0 && !validWindow(w.Tokens) || w.ModelMax < 0 || w.Loaded < 0 || w.MaxOutput < 0 {
		return chat.ModelWindow{}, invalid("a discovered window of %d tokens is not a context window", w.Tokens)
	}
	now := chat.Now()
	_, err := s.db.ExecContext(ctx, `INSERT INTO model_windows (provider_id, model, discovered, discovered_max, discovered_loaded,
			discovered_output, source, note, discovered_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (provider_id, model) DO UPDATE SET discovered = excluded.discovered, discovered_max = excluded.discovered_max,
			discovered_loaded = excluded.discovered_loaded, discovered_output = excluded.discovered_output,
			source = excluded.source, note = excluded.note, discovered_at = excluded.discovered_at, updated_at = excluded.updated_at,
			learned = CASE WHEN ? THEN 0 ELSE learned END,
			learned_reason = CASE WHEN ? THEN '' ELSE learned_reason END,
			learned_at = CASE WHEN ? THEN 0 ELSE learned_at END`,
		providerID, model, w.Tokens, w.ModelMax, w.Loaded, w.MaxOutput, w.Source, clipText(w.Note, maxWindowNote), now, now,
		forget, forget, forget)
	if err != nil {
		return chat.ModelWindow{}, wrap("record model window", err)
	}
	return s.GetModelWindow(ctx, providerID, model)
}

// LearnModelWindow keeps the window an overflow error stated, and why (the
// server's words). It takes effect over a larger discovered window.
func (s *Store) LearnModelWindow(ctx context.Context, providerID, model string, tokens int, reason string) (chat.ModelWindow, error) {
	if err := checkKey(providerID, model); err != nil {
		return chat.ModelWindow{}, err
	}
	if !validWindow(tokens) {
		return chat.ModelWindow{}, invalid("an overflow error's window of %d tokens is not a context window", tokens)
	}
	now := chat.Now()
	_, err := s.db.ExecContext(ctx, `INSERT INTO model_windows (provider_id, model, learned, learned_reason, learned_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (provider_id, model) DO UPDATE SET learned = excluded.learned, learned_reason = excluded.learned_reason,
			learned_at = excluded.learned_at, updated_at = excluded.updated_at`,
		providerID, model, tokens, clipText(reason, maxWindowNote), now, now)
	if err != nil {
		return chat.ModelWindow{}, wrap("learn model window", err)
	}
	return s.GetModelWindow(ctx, providerID, model)
}

// SetModelWindowLimits keeps the user's window and answer budget for a
// model (0 clears one: discovery decides the window, the server the
// answer's length).
func (s *Store) SetModelWindowLimits(ctx context.Context, providerID, model string, window, maxOutput int) (chat.ModelWindow, error) {
	if err := checkKey(providerID, model); err != nil {
		return chat.ModelWindow{}, err
	}
	if window != 0 && !validWindow(window) {
		return chat.ModelWindow{}, refuse(txtWindowRange, "min", chat.MinWindow, "max", chat.MaxWindow, "window", window)
	}
	if maxOutput < 0 || maxOutput > chat.MaxWindow {
		return chat.ModelWindow{}, refuse(txtBudgetRange, "max", chat.MaxWindow, "budget", maxOutput)
	}
	if window > 0 && maxOutput >= window {
		return chat.ModelWindow{}, refuse(txtBudgetOverWindow, "budget", maxOutput, "window", window)
	}
	now := chat.Now()
	_, err := s.db.ExecContext(ctx, `INSERT INTO model_windows (provider_id, model, user_window, user_max_output, updated_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (provider_id, model) DO UPDATE SET user_window = excluded.user_window, user_max_output = excluded.user_max_output,
			updated_at = excluded.updated_at`, providerID, model, window, maxOutput, now)
	if err != nil {
		return chat.ModelWindow{}, wrap("set model window", err)
	}
	return s.GetModelWindow(ctx, providerID, model)
}

// maxWindowNote bounds a stored note or reason (they quote servers).
const maxWindowNote = 1000

func validWindow(n int) bool { return n >= chat.MinWindow && n <= chat.MaxWindow }

func checkKey(providerID, model string) error {
	if strings.TrimSpace(providerID) == "" || strings.TrimSpace(model) == "" {
		return invalid("a model window needs a provider and a model")
	}
	return nil
}
