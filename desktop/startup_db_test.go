package desktop

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"airlock/backend/store"
)

// A damaged database is never replaced silently: it is moved aside whole,
// the app starts on a new one, and the notice says where the old one went.
func TestOpenStoreSetsADamagedDatabaseAside(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, store.FileName)
	if err := os.WriteFile(p, []byte(strings.Repeat("garbage ", 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	st, notice, err := OpenStore(dir, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	matches, _ := filepath.Glob(p + ".damaged-*")
	if len(matches) != 1 {
		t.Fatalf("backups: %v", matches)
	}
	if kept, _ := os.ReadFile(matches[0]); !strings.HasPrefix(string(kept), "garbage ") {
		t.Error("the backup does not hold the old file")
	}
	if !strings.Contains(notice, matches[0]) || !strings.Contains(notice, "not an SQLite database") {
		t.Errorf("notice: %q", notice)
	}
	// A healthy database: no notice.
	st.Close()
	st, notice, err = OpenStore(dir, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil || notice != "" {
		t.Fatalf("healthy reopen: %q %v", notice, err)
	}
}
