package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// The database holds chats and, without a keychain, API keys: it and its
// WAL and shared-memory files are readable by their owner only, whatever
// the umask, and an older database is tightened when opened.
func TestDatabaseFilesAreOwnerOnly(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	s, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateChat(context.Background(), "x"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{FileName, FileName + "-wal", FileName + "-shm"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", name, fi.Mode().Perm())
		}
	}
	s.Close()

	// A database made by an older version, 0644.
	p := filepath.Join(dir, FileName)
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err = OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("reopened: mode %v, want 0600", fi.Mode().Perm())
	}
}

func writtenStore(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	s, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for range 50 {
		if _, err := s.CreateChat(ctx, strings.Repeat("chat title ", 40)); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	return filepath.Join(dir, FileName)
}

// A damaged or empty file is refused with a sentence that says so and what
// to do, and is left exactly as it was: never replaced by a new database.
func TestDamagedDatabaseIsRefusedUntouched(t *testing.T) {
	cases := map[string]func(t *testing.T, p string){
		"empty": func(t *testing.T, p string) {
			if err := os.Truncate(p, 0); err != nil {
				t.Fatal(err)
			}
		},
		"not a database": func(t *testing.T, p string) {
			if err := os.WriteFile(p, bytes.Repeat([]byte("this is not SQLite\n"), 500), 0o600); err != nil {
				t.Fatal(err)
			}
		},
		"damaged pages": func(t *testing.T, p string) {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			for i := 2 * 4096; i < len(b)-4096; i++ { // all but the first two pages and the last
				b[i] = 0xA5
			}
			if err := os.WriteFile(p, b, 0o600); err != nil {
				t.Fatal(err)
			}
		},
	}
	for name, damage := range cases {
		t.Run(name, func(t *testing.T) {
			p := writtenStore(t)
			damage(t, p)
			before, _ := os.ReadFile(p)
			s, err := Open(p)
			if err == nil {
				s.Close()
				t.Fatal("a damaged database was opened")
			}
			var de *DamagedError
			if !errors.As(err, &de) {
				t.Fatalf("error %T: %v", err, err)
			}
			msg := err.Error()
			t.Log(msg)
			if strings.Contains(msg, "(11)") || strings.Contains(msg, "(26)") || !strings.Contains(msg, p) ||
				!strings.Contains(msg, "damaged") && !strings.Contains(msg, "empty") {
				t.Errorf("message: %s", msg)
			}
			after, _ := os.ReadFile(p)
			if !bytes.Equal(before, after) {
				t.Error("the damaged file was changed")
			}

			// Set aside, with its WAL: the path names where it went, and a
			// new database can be made in its place.
			backup, err := SetAside(p)
			if err != nil {
				t.Fatal(err)
			}
			if kept, _ := os.ReadFile(backup); !bytes.Equal(kept, before) || filepath.Dir(backup) != filepath.Dir(p) {
				t.Errorf("backup %s does not hold the damaged file", backup)
			}
			if _, err := os.Stat(p); !os.IsNotExist(err) {
				t.Errorf("the damaged file is still at %s", p)
			}
			s, err = Open(p)
			if err != nil {
				t.Fatal(err)
			}
			s.Close()
		})
	}
}

// A database over the limit opens without the page check (it would hold the
// window back on a long history); CheckIntegrity finds the damage while the
// app runs and leaves the mark, and the next Open checks and refuses it.
func TestLargeDatabaseIsCheckedWhileTheAppRuns(t *testing.T) {
	defer func(old int64) { checkAtOpenLimit = old }(checkAtOpenLimit)
	p := writtenStore(t)
	checkAtOpenLimit = 0 // every database counts as large

	// Sound: no error, no mark.
	s, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CheckIntegrity(context.Background()); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := os.Stat(damageMark(p)); !os.IsNotExist(err) {
		t.Fatal("a sound database got the damage mark")
	}

	// Damage in a page Open does not read (one of the chats table's leaves).
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(b) - 2*4096; i < len(b)-4096; i++ {
		b[i] = 0xA5
	}
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err = Open(p)
	if err != nil {
		t.Fatalf("opened with the check left for later: %v", err)
	}
	var de *DamagedError
	if err := s.CheckIntegrity(context.Background()); !errors.As(err, &de) {
		t.Fatalf("CheckIntegrity: %v", err)
	}
	s.Close()
	if _, err := os.Stat(damageMark(p)); err != nil {
		t.Fatal("no damage mark after the failed check")
	}
	if _, err := Open(p); !errors.As(err, &de) {
		t.Fatalf("the next Open: %v", err)
	}

	// Once set aside, the new database opens and the mark goes.
	if _, err := SetAside(p); err != nil {
		t.Fatal(err)
	}
	checkAtOpenLimit = 1 << 20
	s, err = Open(p)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := os.Stat(damageMark(p)); !os.IsNotExist(err) {
		t.Fatal("the mark outlived the damaged file")
	}
}
