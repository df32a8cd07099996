package facade

import (
	"context"
	"crypto/rand"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/store"
	"airlock/desktop"
)

// A database too large to check before the window opens is checked once it
// has: damage found then reaches the user (Info's notices) and the next
// start sets the file aside.
func TestLargeDamagedDatabaseIsReportedWhileRunningAndSetAsideNextStart(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, store.FileName)
	st, err := store.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, err := st.CreateChat(ctx, "long history")
	if err != nil {
		t.Fatal(err)
	}
	// 2 MB of history (random, so nothing compresses it away): over the check-at-open limit.
	for range 4 {
		if _, err := st.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleUser, Content: rand.Text() + strings.Repeat(rand.Text(), 20000)}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(b) - 3*4096; i < len(b)-2*4096; i++ { // a page of the last message's text
		b[i] = 0xA5
	}
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}

	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, notice, err := desktop.OpenStore(dir, log)
	if err != nil || notice != "" {
		t.Fatalf("the large database should open with its check left for later: %q %v", notice, err)
	}
	a := NewApp(st, dir, "", nil, log)
	a.ctx = ctx
	a.checkDatabase(ctx, log)
	if n := a.Info().Notices; len(n) != 1 || !strings.Contains(n[0], "damaged") || !strings.Contains(n[0], "next start") {
		t.Fatalf("notices: %q", n)
	}
	a.shutdown(ctx)
	st.Close()

	st, notice, err = desktop.OpenStore(dir, log)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if matches, _ := filepath.Glob(p + ".damaged-*"); len(matches) != 1 || !strings.Contains(notice, matches[0]) {
		t.Fatalf("next start: backups %v, notice %q", matches, notice)
	}
}
