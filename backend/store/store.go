// Package store persists Airlock's chats, messages, settings and providers in
// a single SQLite file, using the pure-Go modernc.org/sqlite driver (no cgo).
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"airlock/backend/chat"
	"airlock/backend/uitext"
)

// FileName is the database file inside the data directory.
const FileName = "airlock.db"

// Store is the app's database. It is safe for concurrent use.
type Store struct {
	db   *sql.DB
	path string

	// stmts caches prepared statements by query text (see prepared).
	stmts sync.Map // string → *sql.Stmt

	// keys keeps API keys outside the file when set (UseKeyring).
	// keysPending, while set, makes key access wait for the app's decision
	// (DeferKeyring).
	keysMu      sync.RWMutex
	keys        Keyring
	keysPending chan struct{}

	// checkLater: the file was too large to check at Open (CheckIntegrity).
	checkLater bool

	// session identifies this run: rules that last until Airlock quits
	// hold only under it (rules.go).
	session string

	// now, when set, is the Trash's clock (tests); else chat.Now.
	now func() int64
}

// DefaultDir is where Airlock keeps its data: $AIRLOCK_DATA_DIR when set
// (tests, portable installs), else <user config dir>/Airlock.
func DefaultDir() (string, error) {
	if dir := os.Getenv("AIRLOCK_DATA_DIR"); dir != "" {
		return dir, nil
	}
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("locate data directory: %w", err)
	}
	return filepath.Join(base, "Airlock"), nil
}

// OpenDir opens (creating if needed) the database in dir.
func OpenDir(dir string) (*Store, error) {
	return Open(filepath.Join(dir, FileName))
}

// Open opens the database file at p, creating it and its parent directory if
// needed, checks it, and brings its schema up to date. A file that is empty
// or damaged is refused with a *DamagedError and left untouched.
func Open(p string) (*Store, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", p, err)
	}
	// 0700: the database holds API keys.
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("open store: create directory: %w", err)
	}
	if err := checkNotEmpty(abs); err != nil {
		return nil, err
	}
	if err := createOwnerOnly(abs); err != nil {
		return nil, fmt.Errorf("open store %s: %w", abs, err)
	}
	db, err := sql.Open("sqlite", dsn(abs))
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", abs, err)
	}
	s := &Store{db: db, path: abs, session: chat.NewID(), checkLater: !checkAtOpen(abs)}
	ctx := context.Background()
	if !s.checkLater {
		err = quickCheck(ctx, db, abs)
	}
	ownerOnly(abs) // the first connection made the WAL and -shm files
	var ms []migration
	if err == nil {
		ms, err = loadMigrations(migrationFS)
	}
	if err == nil {
		err = damaged(abs, migrate(ctx, db, ms))
	}
	if err == nil {
		err = maskStoredErrors(ctx, db)
	}
	if err != nil {
		db.Close()
		var de *DamagedError
		if errors.As(err, &de) {
			return nil, err
		}
		return nil, fmt.Errorf("open store %s: %w", abs, err)
	}
	if !s.checkLater {
		_ = os.Remove(damageMark(abs)) // checked now and sound
	}
	return s, nil
}

// dsn builds a file: URI for the driver. The path is URI-escaped, so names
// holding '?', '#', '%' or spaces survive, and Windows drive paths become
// file:///C:/... as SQLite expects. The parameters are applied by the driver
// to every pooled connection, which matters for foreign_keys: it is a
// per-connection setting.
//
//   - WAL lets the UI read while a stream writes.
//   - busy_timeout makes a writer wait for another instead of failing with
//     SQLITE_BUSY.
//   - _txlock=immediate takes the write lock at BEGIN. A deferred transaction
//     that reads and then writes can hit SQLITE_BUSY that no timeout cures
//     (its snapshot is stale); an immediate one just waits its turn.
//   - synchronous=NORMAL is durable across app crashes in WAL mode; only an
//     OS crash can lose the last commits, which is fine for a chat app.
func dsn(abs string) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x -> /C:/x
	}
	q := "_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)" +
		"&_pragma=synchronous(NORMAL)&_txlock=immediate"
	return (&url.URL{Scheme: "file", Path: p, RawQuery: q}).String()
}

// Close closes the database.
func (s *Store) Close() error {
	s.stmts.Range(func(k, v any) bool {
		v.(*sql.Stmt).Close()
		s.stmts.Delete(k)
		return true
	})
	return s.db.Close()
}

// prepared returns the statement for a query, preparing it once per
// connection. Preparing is most of the cost of a small statement, and much
// more for the statements that fire the search triggers (their programs are
// compiled with the statement): UpdateMessage runs every 250 ms while an
// answer streams. With tx non-nil the statement runs in that transaction.
func (s *Store) prepared(ctx context.Context, tx *sql.Tx, query string) (*sql.Stmt, error) {
	v, ok := s.stmts.Load(query)
	if !ok {
		st, err := s.db.PrepareContext(ctx, query)
		if err != nil {
			return nil, err
		}
		if v, ok = s.stmts.LoadOrStore(query, st); ok {
			st.Close() // another goroutine was first
		}
	}
	st := v.(*sql.Stmt)
	if tx != nil {
		st = tx.StmtContext(ctx, st)
	}
	return st, nil
}

// exec runs a cached statement (in tx, when not nil).
func (s *Store) exec(ctx context.Context, tx *sql.Tx, query string, args ...any) (sql.Result, error) {
	st, err := s.prepared(ctx, tx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

// queryRow runs a cached single-row query (in tx, when not nil).
func (s *Store) queryRow(ctx context.Context, tx *sql.Tx, query string, args ...any) *sql.Row {
	st, err := s.prepared(ctx, tx, query)
	if err != nil {
		// A *sql.Row cannot be built with an error; run it unprepared so
		// the caller's Scan reports it.
		if tx != nil {
			return tx.QueryRowContext(ctx, query, args...)
		}
		return s.db.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// query runs a cached query (in tx, when not nil).
func (s *Store) query(ctx context.Context, tx *sql.Tx, query string, args ...any) (*sql.Rows, error) {
	st, err := s.prepared(ctx, tx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// Path is the absolute path of the database file.
func (s *Store) Path() string { return s.path }

// SchemaVersion is the number of the last migration applied.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}

// Migrations live in migrations/NNNN_name.sql, numbered from 1 with no gaps.
// The number of the last one applied is kept in PRAGMA user_version, which is
// stored in the database header and so commits or rolls back with the
// migration's transaction. Never edit a released migration; add a new file.
//
//go:embed migrations/*.sql
var migrationFS embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads migrations/*.sql from fsys and checks they run 1..N.
func loadMigrations(fsys fs.FS) ([]migration, error) {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, name := range names {
		base := path.Base(name)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must look like 0001_name.sql", base)
		}
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: base, sql: string(body)})
	}
	slices.SortFunc(ms, func(a, b migration) int { return a.version - b.version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: expected version %d (migrations must be numbered 1..N without gaps or duplicates)", m.name, i+1)
		}
	}
	return ms, nil
}

// migrate brings the database up to date: every migration newer than it, in
// order, in one transaction with the version bump (all or none: a new
// database gets its whole schema in one commit).
func migrate(ctx context.Context, db *sql.DB, ms []migration) error {
	var v int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if v == len(ms) {
		return nil // up to date: no write lock taken
	}
	tx, err := db.BeginTx(ctx, nil) // immediate: holds the write lock
	if err != nil {
		return fmt.Errorf("migrating the database: %w", err)
	}
	defer tx.Rollback()
	// Read the version again inside the transaction, so two processes opening
	// the same file at once cannot both apply a migration.
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	// A database written by a newer Airlock has tables this build does not
	// know; refuse it rather than risk damaging it.
	if v > len(ms) {
		return fmt.Errorf("database schema version %d is newer than this version of Airlock supports (%d)", v, len(ms))
	}
	for _, m := range ms[v:] { // ms[i] is version i+1
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	// PRAGMA takes no bound parameters; the version is our own integer.
	if _, err := tx.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(len(ms))); err != nil {
		return fmt.Errorf("migration %s: set version: %w", ms[len(ms)-1].name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrating the database: commit: %w", err)
	}
	return nil
}

// withTx runs fn in a write transaction, committing if it returns nil.
func (s *Store) withTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// notFound is the error for a missing row: "chat 123 not found".
func notFound(what, id string) error {
	return chat.Errorf("not_found", chat.ErrNotFound, "%s %s not found", what, id)
}

// invalid is the error for input the store refuses.
func invalid(format string, args ...any) error {
	return chat.Errorf("invalid", chat.ErrInvalid, format, args...)
}

// refuse is invalid with a sentence coded for the UI's language.
func refuse(t uitext.Template, pairs ...any) error {
	return chat.Coded("invalid", chat.ErrInvalid, t.With(pairs...))
}

// The refusals a person can meet in Settings (most others guard the data).
var (
	txtTooManyAgents       = uitext.Define("too_many_agents", "there are already {{n}} agents, the most Airlock keeps; delete one first")
	txtBuiltinAgent        = uitext.Define("builtin_agent", "{{name}} comes with Airlock and cannot be deleted (change it instead)")
	txtImportTooManyAgents = uitext.Define("import_too_many_agents", "the file holds {{n}} agents; at most {{max}} can be imported")
	txtEmptyTitle          = uitext.Define("empty_title", "chat title must not be empty")
	txtNeedsFolder         = uitext.Define("workspace_needs_folder", "a {{kind}} workspace needs a folder")
	txtModelNameLong       = uitext.Define("model_name_long", "a model name is at most 256 characters")
	txtTooManyToggles      = uitext.Define("too_many_toggles", "a chat can toggle at most {{max}} tools")
	txtWindowRange         = uitext.Define("window_range", "a context window is between {{min}} and {{max}} tokens, not {{window}}")
	txtBudgetRange         = uitext.Define("budget_range", "an answer budget is between 1 and {{max}} tokens (0 = the server's default), not {{budget}}")
	txtBudgetOverWindow    = uitext.Define("budget_over_window", "the answer budget ({{budget}} tokens) must be smaller than the window ({{window}} tokens): the answer shares the window with the conversation")
	txtThinkingBudget      = uitext.Define("thinking_budget", "the thinking budget is {{budget}} tokens; use 0 (off) or {{min}} to {{max}}")
	txtProviderName        = uitext.Define("provider_name_required", "provider name is required")
	txtProviderURL         = uitext.Define("provider_url_required", "provider base URL is required")
	txtProviderScheme      = uitext.Define("provider_url_scheme", "provider base URL {{url}} must be an http:// or https:// address")
	txtDemoProvider        = uitext.Define("demo_provider", "the demo provider cannot be deleted")
)

// mustAffect turns "no row changed" into a not-found error.
func mustAffect(res sql.Result, what, id string) error {
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return notFound(what, id)
	}
	return nil
}

// isNoRows reports a QueryRow that found nothing.
func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

// wrap adds what we were doing to a low-level error. Domain errors
// (*chat.Error) already read well ("chat 123 not found") and pass unchanged.
func wrap(op string, err error) error {
	var ce *chat.Error
	if err == nil || errors.As(err, &ce) {
		return err
	}
	if d := Explain(err); d != err { // SQLite found damage: say so, not "malformed (11)"
		return d
	}
	return fmt.Errorf("%s: %w", op, err)
}
