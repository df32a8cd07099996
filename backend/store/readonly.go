package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// AuditSchema is the first schema version with the audit trail.
const AuditSchema = 8

// OpenReadOnly opens an existing database in dir for reading only: nothing
// is created, migrated or written (airlockctl reads the audit trail with
// it, while Airlock may be running). A database too old for what the caller
// reads says so through SchemaVersion.
func OpenReadOnly(dir string) (*Store, error) {
	p, err := filepath.Abs(filepath.Join(dir, FileName))
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", dir, err)
	}
	if _, err := os.Stat(p); err != nil {
		return nil, fmt.Errorf("open store: no Airlock database in %s", dir)
	}
	u := filepath.ToSlash(p)
	if !strings.HasPrefix(u, "/") {
		u = "/" + u
	}
	q := "mode=ro&_pragma=busy_timeout(5000)&_pragma=query_only(1)"
	db, err := sql.Open("sqlite", (&url.URL{Scheme: "file", Path: u, RawQuery: q}).String())
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", p, err)
	}
	if err := db.PingContext(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", p, err)
	}
	return &Store{db: db, path: p}, nil
}
