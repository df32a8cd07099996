package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/store"
)

// exportOf exports a fresh data directory's chats as JSON.
func exportOf(t *testing.T) []byte {
	t.Helper()
	dir, _ := seedDataDir(t)
	file := filepath.Join(t.TempDir(), "all.json")
	if code, _, errs := runCLI(t, "", "export", "--data-dir", dir, "--all", "-o", file); code != exitOK {
		t.Fatalf("export: %s", errs)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A UTF-8 byte order mark at the start of an import file is accepted
// (issue 31, item 14).
func TestImportAcceptsAByteOrderMark(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bom.json")
	os.WriteFile(file, append([]byte("\xef\xbb\xbf"), exportOf(t)...), 0o600)
	code, out, errs := runCLI(t, "", "import", "--data-dir", t.TempDir(), file)
	if code != exitOK || !strings.Contains(out, "Imported 2 new chats") {
		t.Fatalf("code %d, out %q, err %q", code, out, errs)
	}
}

// An import never writes into a damaged database, however large (Open
// checks the pages of small ones only).
func TestImportRunsTheQuickCheckWhateverTheSize(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := store.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := s.CreateChat(ctx, "big")
	for range 12 { // over the 1 MB Open checks
		if _, err := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleUser, Content: strings.Repeat("lorem ipsum ", 10_000)}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	p := filepath.Join(dir, store.FileName)
	b, _ := os.ReadFile(p)
	if len(b) < 1<<20 {
		t.Fatalf("the database is only %d bytes", len(b))
	}
	for i := len(b) - 3*4096; i < len(b)-4096; i++ { // two pages of the messages' data
		b[i] = 0xA5
	}
	os.WriteFile(p, b, 0o600)
	os.Remove(p + "-wal")
	file := filepath.Join(t.TempDir(), "in.json")
	os.WriteFile(file, exportOf(t), 0o600)
	code, out, errs := runCLI(t, "", "import", "--data-dir", dir, file)
	after, _ := os.ReadFile(p)
	if code == exitOK || !strings.Contains(errs, "damaged") || strings.Contains(errs, "(11)") {
		t.Fatalf("import into a damaged database: code %d, out %q, err %q", code, out, errs)
	}
	if !bytes.Equal(b, after) {
		t.Error("the damaged database was written")
	}
}

// A file over the import cap is refused on its size, before it is read or
// decoded.
func TestImportRefusesAnOversizedFileBeforeReadingIt(t *testing.T) {
	file := filepath.Join(t.TempDir(), "huge.json")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(200 << 20) // sparse: 200 MB that take no disk
	f.Close()
	code, _, errs := runCLI(t, "", "import", "--data-dir", t.TempDir(), file)
	if code == exitOK || !strings.Contains(errs, "limit for an import") || !strings.Contains(errs, "209,715,200") {
		t.Fatalf("code %d, err %q", code, errs)
	}
}
