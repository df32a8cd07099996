package store

import (
	"context"
	"database/sql"
	"math"
	"strconv"

	"airlock/backend/chat"
)

// Keys of chat.Settings in the settings table. Other features may store
// their own keys with SetValue; these names are taken.
const (
	keyActiveProvider = "active_provider_id"
	keySystemPrompt   = "system_prompt"
	keyTemperature    = "temperature"
	keyLanguage       = "language"
	keyTheme          = "theme"
	keyAutoContinue   = "auto_continue"
	keyMaxTurns       = "max_turns"
	keyToolTimeout    = "tool_timeout_seconds"
	keyToolMode       = "tool_mode"
)

// GetValue reads a raw setting; ok is false when the key was never set.
func (s *Store) GetValue(ctx context.Context, key string) (value string, ok bool, err error) {
	err = s.db.QueryRowContext(ctx, "SELECT value FROM settings WHERE key = ?", key).Scan(&value)
	if isNoRows(err) {
		return "", false, nil
	}
	if err != nil {
		return "", false, wrap("get setting "+key, err)
	}
	return value, true, nil
}

// SetValue writes a raw setting.
func (s *Store) SetValue(ctx context.Context, key, value string) error {
	if key == "" {
		return invalid("setting key must not be empty")
	}
	return wrap("set setting "+key, setValue(ctx, s.db, key, value))
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func setValue(ctx context.Context, e execer, key, value string) error {
	_, err := e.ExecContext(ctx,
		"INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
		key, value)
	return err
}

// GetSettings returns the user's preferences; anything never saved has its
// chat.DefaultSettings value.
func (s *Store) GetSettings(ctx context.Context) (chat.Settings, error) {
	st := chat.DefaultSettings()
	rows, err := s.db.QueryContext(ctx, "SELECT key, value FROM settings WHERE key IN (?, ?, ?, ?, ?, ?, ?, ?, ?)",
		keyActiveProvider, keySystemPrompt, keyTemperature, keyLanguage, keyTheme, keyAutoContinue, keyMaxTurns, keyToolTimeout, keyToolMode)
	if err != nil {
		return st, wrap("get settings", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return st, wrap("get settings", err)
		}
		switch k {
		case keyActiveProvider:
			st.ActiveProviderID = v
		case keySystemPrompt:
			st.SystemPrompt = v
		case keyTemperature:
			// An unreadable value keeps the default: a damaged setting
			// should not stop the app from starting.
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				st.Temperature = f
			}
		case keyLanguage:
			st.Language = v
		case keyTheme:
			st.Theme = v
		case keyAutoContinue:
			st.AutoContinue = v == "true"
		case keyMaxTurns:
			if n, err := strconv.Atoi(v); err == nil {
				st.MaxTurns = n
			}
		case keyToolTimeout:
			if n, err := strconv.Atoi(v); err == nil {
				st.ToolTimeoutSeconds = n
			}
		case keyToolMode:
			if m, ok := chat.ParseToolMode(v); ok {
				st.ToolMode = m
			}
		}
	}
	if err := rows.Err(); err != nil {
		return st, wrap("get settings", err)
	}
	return st, nil
}

// SaveSettings stores all preferences at once (one transaction).
func (s *Store) SaveSettings(ctx context.Context, st chat.Settings) error {
	if st.ToolMode == "" { // a UI that does not know the setting
		st.ToolMode = chat.DefaultSettings().ToolMode
	}
	if err := validateSettings(st); err != nil {
		return err
	}
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		for _, kv := range [][2]string{
			{keyActiveProvider, st.ActiveProviderID},
			{keySystemPrompt, st.SystemPrompt},
			{keyTemperature, strconv.FormatFloat(st.Temperature, 'g', -1, 64)},
			{keyLanguage, st.Language},
			{keyTheme, st.Theme},
			{keyAutoContinue, strconv.FormatBool(st.AutoContinue)},
			{keyMaxTurns, strconv.Itoa(st.MaxTurns)},
			{keyToolTimeout, strconv.Itoa(st.ToolTimeoutSeconds)},
			{keyToolMode, string(st.ToolMode)},
		} {
			if err := setValue(ctx, tx, kv[0], kv[1]); err != nil {
				return err
			}
		}
		return nil
	})
	return wrap("save settings", err)
}

func validateSettings(st chat.Settings) error {
	if st.ActiveProviderID == "" {
		return invalid("an active provider is required")
	}
	// Below 0 means "provider default", so only the top is bounded.
	if math.IsNaN(st.Temperature) || math.IsInf(st.Temperature, 0) || st.Temperature > 2 {
		return invalid("temperature must be at most 2 (or negative for the provider default), got %v", st.Temperature)
	}
	if st.MaxTurns < 1 || st.MaxTurns > 1000 {
		return invalid("the turn limit must be between 1 and 1000, got %d", st.MaxTurns)
	}
	if st.ToolTimeoutSeconds < 1 || st.ToolTimeoutSeconds > 3600 {
		return invalid("the tool timeout must be between 1 and 3600 seconds, got %d", st.ToolTimeoutSeconds)
	}
	switch st.Language {
	case "auto", "en", "zh":
	default:
		return invalid("unknown language %q (want auto, en or zh)", st.Language)
	}
	switch st.Theme {
	case "system", "light", "dark":
	default:
		return invalid("unknown theme %q (want system, light or dark)", st.Theme)
	}
	if _, ok := chat.ParseToolMode(string(st.ToolMode)); !ok {
		return invalid("unknown tool mode %q (want text, native or auto)", st.ToolMode)
	}
	return nil
}
