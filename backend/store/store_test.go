package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"airlock/backend/chat"
)

func newStore(t testing.TB) *Store {
	t.Helper()
	s, err := OpenDir(t.TempDir())
	if err != nil {
		t.Fatalf("OpenDir: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// migrationFiles counts the .sql files on disk, independently of the loader.
func migrationFiles(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("migrations")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sql") {
			n++
		}
	}
	if n == 0 {
		t.Fatal("no migration files found")
	}
	return n
}

func wantErr(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error = %v, want errors.Is(%v)", err, target)
	}
}

func TestMigrateFromEmpty(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	v, err := s.SchemaVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := migrationFiles(t); v != want {
		t.Fatalf("SchemaVersion = %d, want %d (one per migration file)", v, want)
	}
	for _, table := range []string{"chats", "messages", "settings", "providers"} {
		var n int
		if err := s.db.QueryRowContext(ctx,
			"SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", table).Scan(&n); err != nil || n != 1 {
			t.Errorf("table %s: count %d, err %v", table, n, err)
		}
	}
	if _, err := os.Stat(s.Path()); err != nil {
		t.Fatalf("database file: %v", err)
	}
}

func TestMigrationsContiguous(t *testing.T) {
	ms, err := loadMigrations(migrationFS)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != migrationFiles(t) {
		t.Fatalf("loaded %d migrations, %d files on disk", len(ms), migrationFiles(t))
	}
	for i, m := range ms {
		if m.version != i+1 || strings.TrimSpace(m.sql) == "" {
			t.Fatalf("migration %d = %s (version %d)", i, m.name, m.version)
		}
	}
}

func TestLoadMigrationsRejectsBadNumbering(t *testing.T) {
	for name, fsys := range map[string]fstest.MapFS{
		"gap":        {"migrations/0001_a.sql": {}, "migrations/0003_c.sql": {}},
		"duplicate":  {"migrations/0001_a.sql": {}, "migrations/0001_b.sql": {}},
		"zero":       {"migrations/0000_a.sql": {}},
		"unnumbered": {"migrations/init.sql": {}},
	} {
		if _, err := loadMigrations(fsys); err == nil {
			t.Errorf("%s: loadMigrations accepted it", name)
		}
	}
}

func TestReopenKeepsDataAndSkipsMigrations(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.CreateChat(ctx, "kept")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SaveProvider(ctx, chat.Provider{ID: chat.DemoProviderID, Model: "changed"}); err != nil {
		t.Fatal(err)
	}
	v1, _ := s.SchemaVersion(ctx)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	// 0001 uses plain CREATE TABLE and INSERT of the demo row: running it a
	// second time would fail, and would reset the demo model.
	s, err = OpenDir(dir)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s.Close()
	if got, err := s.GetChat(ctx, c.ID); err != nil || !reflect.DeepEqual(got, c) {
		t.Fatalf("GetChat after reopen = %+v, %v; want %+v", got, err, c)
	}
	if p, _ := s.GetProvider(ctx, chat.DemoProviderID); p.Model != "changed" {
		t.Fatalf("demo model after reopen = %q, want %q", p.Model, "changed")
	}
	if v2, _ := s.SchemaVersion(ctx); v2 != v1 {
		t.Fatalf("version %d after reopen, was %d", v2, v1)
	}
}

// openRaw opens the database file without migrating it.
func openRaw(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func userVersion(t *testing.T, db *sql.DB) int {
	t.Helper()
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestUpgradeFromEveryOlderVersion(t *testing.T) {
	ms, err := loadMigrations(migrationFS)
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < len(ms); k++ {
		path := filepath.Join(t.TempDir(), "old.db")
		db := openRaw(t, path)
		if err := migrate(context.Background(), db, ms[:k]); err != nil {
			t.Fatalf("migrate to %d: %v", k, err)
		}
		if v := userVersion(t, db); v != k {
			t.Fatalf("at version %d, want %d", v, k)
		}
		db.Close()
		s, err := Open(path)
		if err != nil {
			t.Fatalf("upgrade from %d: %v", k, err)
		}
		if v, _ := s.SchemaVersion(context.Background()); v != len(ms) {
			t.Errorf("upgrade from %d reached %d, want %d", k, v, len(ms))
		}
		s.Close()
	}
}

// A future migration runs on an existing database and keeps its data.
func TestNewMigrationUpgradesExistingData(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, err := s.CreateChat(ctx, "old chat")
	if err != nil {
		t.Fatal(err)
	}
	s.Close()

	ms, _ := loadMigrations(migrationFS)
	next := migration{version: len(ms) + 1, name: "next.sql", sql: `
		ALTER TABLE chats ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
		CREATE TABLE extra (id INTEGER PRIMARY KEY);`}
	db := openRaw(t, s.Path())
	if err := migrate(ctx, db, append(ms, next)); err != nil {
		t.Fatal(err)
	}
	if v := userVersion(t, db); v != len(ms)+1 {
		t.Fatalf("version %d, want %d", v, len(ms)+1)
	}
	var title string
	var archived int
	if err := db.QueryRow("SELECT title, archived FROM chats WHERE id = ?", c.ID).Scan(&title, &archived); err != nil || title != "old chat" {
		t.Fatalf("chat after upgrade: %q %d %v", title, archived, err)
	}
}

// A failed migration rolls back, and an upgrade over several versions is all
// or none: it takes the earlier migrations of the same upgrade back with it.
func TestFailedMigrationRollsBack(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	s.Close()
	ms, _ := loadMigrations(migrationFS)
	good := migration{version: len(ms) + 1, name: "good.sql", sql: `CREATE TABLE good (x INTEGER);`}
	bad := migration{version: len(ms) + 2, name: "bad.sql", sql: `
		CREATE TABLE half_done (x INTEGER);
		INSERT INTO no_such_table VALUES (1);`}
	db := openRaw(t, s.Path())
	if err := migrate(ctx, db, append(ms, good, bad)); err == nil || !strings.Contains(err.Error(), "bad.sql") {
		t.Fatalf("migrate = %v, want an error naming bad.sql", err)
	}
	if v := userVersion(t, db); v != len(ms) {
		t.Fatalf("version %d after a failed upgrade, want %d", v, len(ms))
	}
	var n int
	db.QueryRow("SELECT count(*) FROM sqlite_schema WHERE name IN ('good', 'half_done')").Scan(&n)
	if n != 0 {
		t.Fatal("part of the failed upgrade was kept")
	}
	// The same upgrade without the bad step applies.
	if err := migrate(ctx, db, append(ms, good)); err != nil {
		t.Fatal(err)
	}
	if v := userVersion(t, db); v != len(ms)+1 {
		t.Fatalf("version %d, want %d", v, len(ms)+1)
	}
}

func TestNewerDatabaseRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "future.db")
	db := openRaw(t, path)
	if _, err := db.Exec("PRAGMA user_version = 999"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if s, err := Open(path); err == nil {
		s.Close()
		t.Fatal("Open accepted a database from a newer version")
	}
}

func TestConnectionSettings(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	// Hold several connections at once so the pool must open distinct
	// ones: each needs the per-connection pragmas.
	var conns []*sql.Conn
	for range 3 {
		c, err := s.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	for i, c := range conns {
		var fk, busy int
		var mode string
		c.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk)
		c.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&busy)
		c.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode)
		if fk != 1 || busy != 5000 || mode != "wal" {
			t.Errorf("conn %d: foreign_keys=%d busy_timeout=%d journal_mode=%s", i, fk, busy, mode)
		}
	}
}

func TestOpenPathWithAwkwardCharacters(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "my data?#%20 ü", "nested")
	s, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, FileName)
	if s.Path() != want {
		t.Fatalf("Path = %q, want %q", s.Path(), want)
	}
	if _, err := s.CreateChat(ctx, "x"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := os.Stat(want); err != nil {
		t.Fatalf("database not at the literal path: %v", err)
	}
	s, err = OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if cs, _ := s.ListChats(ctx); len(cs) != 1 {
		t.Fatalf("reopened store has %d chats, want 1", len(cs))
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv("AIRLOCK_DATA_DIR", "/some/where")
	if d, err := DefaultDir(); err != nil || d != "/some/where" {
		t.Fatalf("DefaultDir = %q, %v", d, err)
	}
	t.Setenv("AIRLOCK_DATA_DIR", "")
	d, err := DefaultDir()
	if err != nil {
		t.Skipf("no user config dir here: %v", err)
	}
	if filepath.Base(d) != "Airlock" {
		t.Fatalf("DefaultDir = %q, want .../Airlock", d)
	}
}
