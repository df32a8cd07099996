package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"modernc.org/sqlite"
)

// DamagedError says the database file cannot be used as it is: empty,
// not an SQLite database, or failing its integrity check. Open leaves such
// a file exactly as it found it; SetAside moves it out of the way.
type DamagedError struct {
	Path   string
	Reason string // what is wrong, for people
	Err    error  // what SQLite said, when it said something
}

func (e *DamagedError) Error() string {
	if e.Path == "" { // found by a query while running
		return fmt.Sprintf("Airlock's database is damaged: %s. Export the chats you need while they still open, "+
			"then restore the database from a backup, or quit and move it away to start with a new one "+
			"(the sqlite3 tool's .recover command may rescue chats from it).", e.Reason)
	}
	return fmt.Sprintf("Airlock's database %s is damaged: %s. Airlock has not changed it. "+
		"Restore it from a backup, or move it away to start with a new database "+
		"(the sqlite3 tool's .recover command may rescue chats from it).", e.Path, e.Reason)
}

func (e *DamagedError) Unwrap() error { return e.Err }

// Code is the error's code for the UI.
func (e *DamagedError) Code() string { return "database_damaged" }

// Explain is err, or when SQLite said in it that the database is damaged
// (SQLITE_CORRUPT, SQLITE_NOTADB) the *DamagedError that says so in words:
// no person should read "database disk image is malformed (11)".
func Explain(err error) error {
	var de *DamagedError
	if err == nil || errors.As(err, &de) {
		return err
	}
	return damaged("", err)
}

// SQLite's primary result codes for a file that is not a usable database.
const (
	sqliteCorrupt = 11 // SQLITE_CORRUPT: "database disk image is malformed"
	sqliteNotADB  = 26 // SQLITE_NOTADB: "file is not a database"
)

// damaged turns an error SQLite gave while opening into a DamagedError
// when it says the file is broken; other errors pass unchanged.
func damaged(p string, err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err
	}
	switch se.Code() & 0xff {
	case sqliteCorrupt:
		return &DamagedError{Path: p, Reason: "SQLite reports that the file is malformed", Err: err}
	case sqliteNotADB:
		return &DamagedError{Path: p, Reason: "it is not an SQLite database", Err: err}
	}
	return err
}

// checkNotEmpty refuses a database file that exists with nothing in it (a
// truncated file): SQLite would quietly make a new database there.
func checkNotEmpty(p string) error {
	fi, err := os.Stat(p)
	if err != nil || fi.Size() > 0 {
		return nil // missing: a first start; errors are SQLite's to report
	}
	if wal, err := os.Stat(p + "-wal"); err == nil && wal.Size() > 0 {
		return nil // the WAL may hold the whole database: let SQLite read it
	}
	return &DamagedError{Path: p, Reason: "it is empty (0 bytes), so it holds none of your chats"}
}

// checkAtOpenLimit is the largest database (file and WAL) whose integrity
// is checked before Open returns: SQLite's quick check reads every page
// (~30 ms a MB here), which on a long history would hold the window back by
// seconds at every start. Larger ones are checked by CheckIntegrity while
// the app runs; damage it finds is checked again, and the file set aside,
// at the next start (damageMark).
var checkAtOpenLimit int64 = 1 << 20

// damageMark is the file beside the database that says a check while the
// app ran found damage: the next Open checks before anything else.
func damageMark(p string) string { return p + ".damage-found" }

// checkAtOpen says whether Open checks the file's pages before returning.
func checkAtOpen(p string) bool {
	if _, err := os.Stat(damageMark(p)); err == nil {
		return true
	}
	var size int64
	for _, f := range []string{p, p + "-wal"} {
		if fi, err := os.Stat(f); err == nil {
			size += fi.Size()
		}
	}
	return size <= checkAtOpenLimit
}

// CheckIntegrity runs the quick check Open skipped on a large database. On
// damage it leaves the mark that makes the next start check again (and set
// the file aside), and returns the *DamagedError to tell the user.
func (s *Store) CheckIntegrity(ctx context.Context) error {
	if !s.checkLater {
		return nil
	}
	err := quickCheck(ctx, s.db, s.path)
	var de *DamagedError
	if errors.As(err, &de) {
		_ = os.WriteFile(damageMark(s.path), []byte(de.Reason+"\n"), 0o600)
	}
	return err
}

// quickCheck runs SQLite's quick integrity check (the structure of every
// page, without cross-checking indexes: a fraction of integrity_check's
// time).
func quickCheck(ctx context.Context, db *sql.DB, p string) error {
	rows, err := db.QueryContext(ctx, "PRAGMA quick_check(5)")
	if err != nil {
		return damaged(p, err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return damaged(p, err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return damaged(p, err)
	}
	if len(problems) > 0 {
		return &DamagedError{Path: p, Reason: "its integrity check failed (" + strings.Join(problems, "; ") + ")"}
	}
	return nil
}

// ownerOnly makes the database and its WAL and shared-memory files
// readable by their owner only (they hold chats, and API keys where there
// is no keychain). SQLite gives the WAL and -shm files the mode of the
// database file, so new ones follow. A no-op on Windows.
func ownerOnly(p string) {
	for _, f := range []string{p, p + "-wal", p + "-shm", p + "-journal"} {
		if fi, err := os.Stat(f); err == nil && fi.Mode().Perm()&0o077 != 0 {
			_ = os.Chmod(f, 0o600)
		}
	}
}

// createOwnerOnly makes a new, empty database file with mode 0600 before
// SQLite does (it would use 0644 less the umask).
func createOwnerOnly(p string) error {
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// SetAside moves a damaged database file (with its WAL and shared-memory
// files, which may hold its last changes) to <name>.damaged-<time> in the
// same folder, and returns that path. Nothing is deleted.
func SetAside(p string) (string, error) {
	base := p + ".damaged-" + time.Now().Format("20060102-150405")
	backup := base
	for i := 2; ; i++ {
		if _, err := os.Lstat(backup); os.IsNotExist(err) {
			break
		}
		backup = base + "-" + strconv.Itoa(i)
	}
	if err := os.Rename(p, backup); err != nil {
		return "", fmt.Errorf("moving the damaged database aside: %w", err)
	}
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Lstat(p + suffix); err == nil {
			if err := os.Rename(p+suffix, backup+suffix); err != nil {
				return backup, fmt.Errorf("moving the damaged database's %s file aside: %w", suffix, err)
			}
		}
	}
	return backup, nil
}
