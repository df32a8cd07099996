package desktop

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"

	"airlock/backend/store"
)

// OpenStore opens the database in dataDir. One that is empty or damaged is
// not replaced silently: it is moved aside whole (with its WAL), a new one
// is made, and the notice (shown at start and logged) says what happened
// and where the old file is.
func OpenStore(dataDir string, log *slog.Logger) (*store.Store, string, error) {
	st, err := store.OpenDir(dataDir)
	var de *store.DamagedError
	if !errors.As(err, &de) {
		return st, "", err
	}
	log.Error("the database is damaged", "path", de.Path, "reason", de.Reason, "err", de.Err)
	backup, aerr := store.SetAside(de.Path)
	if aerr != nil {
		return nil, "", fmt.Errorf("%w (and it could not be moved aside: %v)", err, aerr)
	}
	st, err = store.OpenDir(dataDir)
	if err != nil {
		return nil, "", err
	}
	notice := fmt.Sprintf("Airlock's database could not be used: %s. It was moved, untouched, to %s, "+
		"and Airlock started with a new, empty database in %s. Nothing was deleted: to recover the old chats, "+
		"quit Airlock and try the sqlite3 tool's .recover command on that file.", de.Reason, backup, filepath.Dir(de.Path))
	log.Warn("started with a new database", "backup", backup)
	return st, notice, nil
}
