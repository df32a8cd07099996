package store

import (
	"context"
	"strings"
	"testing"

	"airlock/backend/chat"
)

// Errors stored by an older Airlock quoted the provider's URL and the
// server's words as they came: opening the database masks them, so they
// reach neither the UI nor an export.
func TestOpenMasksSecretsInOldStoredErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := s.CreateChat(ctx, "t")
	m, err := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Status: chat.StatusComplete})
	if err != nil {
		t.Fatal(err)
	}
	m.Status, m.ErrorCode = chat.StatusError, "connection"
	old := "Could not connect to https://bob:pw-SECRET-1@h.example/v1?api_key=qk-SECRET-2: connection refused."
	m.ErrorMessage = old
	// As an older version wrote it, straight into the table.
	if _, err := s.db.ExecContext(ctx, "UPDATE messages SET status = ?, error_code = ?, error_message = ? WHERE id = ?",
		m.Status, m.ErrorCode, old, m.ID); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s, err = OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.GetMessage(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got.ErrorMessage, "SECRET") || !strings.Contains(got.ErrorMessage, "h.example/v1") {
		t.Errorf("stored error after reopening: %q", got.ErrorMessage)
	}
}

func TestSaveProviderErrorHidesURLSecrets(t *testing.T) {
	s := newStore(t)
	_, err := s.SaveProvider(context.Background(), chat.Provider{Name: "x", BaseURL: "ftp://bob:pw-SECRET-1@h/v1?key=qk-SECRET-2"})
	if err == nil || strings.Contains(err.Error(), "SECRET") || !strings.Contains(err.Error(), "ftp://bob:") {
		t.Errorf("error = %v", err)
	}
}
