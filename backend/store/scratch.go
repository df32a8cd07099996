package store

import (
	"context"
	"database/sql"
	"io/fs"
	"time"

	"airlock/backend/workspace"
)

// LoadScratch returns the saved files of a chat's scratch workspace.
func (s *Store) LoadScratch(ctx context.Context, chatID string) ([]workspace.File, error) {
	files, err := loadScratch(ctx, s.db, chatID)
	return files, wrap("load scratch files", err)
}

func loadScratch(ctx context.Context, q rowsQuerier, chatID string) ([]workspace.File, error) {
	rows, err := q.QueryContext(ctx, "SELECT path, is_dir, mode, mod_time, content FROM scratch_files WHERE chat_id = ? ORDER BY path", chatID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var files []workspace.File
	for rows.Next() {
		var f workspace.File
		var mode uint32
		var mod int64
		if err := rows.Scan(&f.Path, &f.IsDir, &mode, &mod, &f.Content); err != nil {
			return nil, err
		}
		f.Mode, f.ModTime = fs.FileMode(mode), time.Unix(0, mod)
		files = append(files, f)
	}
	return files, rows.Err()
}

// SaveScratch replaces the saved files of a chat's scratch workspace, in one
// transaction: a crash leaves either the old set or the new one.
func (s *Store) SaveScratch(ctx context.Context, chatID string, files []workspace.File) error {
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "DELETE FROM scratch_files WHERE chat_id = ?", chatID); err != nil {
			return err
		}
		return insertScratch(ctx, tx, chatID, files)
	})
	return wrap("save scratch files", err)
}

func insertScratch(ctx context.Context, tx *sql.Tx, chatID string, files []workspace.File) error {
	for _, f := range files {
		content := f.Content
		if content == nil {
			content = []byte{}
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO scratch_files (chat_id, path, is_dir, mode, mod_time, content) VALUES (?, ?, ?, ?, ?, ?)",
			chatID, f.Path, f.IsDir, uint32(f.Mode.Perm()), f.ModTime.UnixNano(), content); err != nil {
			return err
		}
	}
	return nil
}
