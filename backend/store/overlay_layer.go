package store

import (
	"context"
	"database/sql"
	"io/fs"

	"airlock/backend/workspace"
)

// Overlay layers: the pending changes of an overlay workspace, per chat and
// folder, saved as they happen so a quit or a crash loses none of them.

var _ workspace.OverlayStore = (*Store)(nil)

// LoadOverlay returns the pending changes saved for a chat's overlay on dir.
func (s *Store) LoadOverlay(ctx context.Context, chatID, dir string) (workspace.OverlayState, error) {
	st := workspace.OverlayState{Dir: dir}
	rows, err := s.db.QueryContext(ctx, `SELECT path, kind, mode, mod_time, content FROM overlay_entries
		WHERE chat_id = ? AND dir = ? ORDER BY path, kind`, chatID, dir)
	if err != nil {
		return st, wrap("load overlay changes", err)
	}
	for rows.Next() {
		var f workspace.File
		var kind string
		var mode uint32
		var mod int64
		if err := rows.Scan(&f.Path, &kind, &mode, &mod, &f.Content); err != nil {
			rows.Close()
			return st, wrap("load overlay changes", err)
		}
		switch kind {
		case "whiteout":
			st.Hidden = append(st.Hidden, f.Path)
			continue
		case "dir":
			f.IsDir, f.Content = true, nil
		default:
			if f.Content == nil {
				f.Content = []byte{}
			}
		}
		f.Mode, f.ModTime = fs.FileMode(mode), fromNano(mod)
		st.Files = append(st.Files, f)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return st, wrap("load overlay changes", err)
	}
	rows, err = s.db.QueryContext(ctx, `SELECT path, present, is_dir, size, mod_time, hash FROM overlay_seen
		WHERE chat_id = ? AND dir = ? ORDER BY path`, chatID, dir)
	if err != nil {
		return st, wrap("load overlay changes", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p workspace.SeenPath
		var mod int64
		if err := rows.Scan(&p.Path, &p.Exists, &p.IsDir, &p.Size, &mod, &p.Hash); err != nil {
			return st, wrap("load overlay changes", err)
		}
		p.ModTime = fromNano(mod)
		st.Seen = append(st.Seen, p)
	}
	return st, wrap("load overlay changes", rows.Err())
}

// SaveOverlay replaces the pending changes saved for a chat's overlay on
// st.Dir, in one transaction: a crash leaves either the old set or the new.
func (s *Store) SaveOverlay(ctx context.Context, chatID string, st workspace.OverlayState) error {
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		for _, q := range []string{`DELETE FROM overlay_entries WHERE chat_id = ? AND dir = ?`, `DELETE FROM overlay_seen WHERE chat_id = ? AND dir = ?`} {
			if _, err := tx.ExecContext(ctx, q, chatID, st.Dir); err != nil {
				return err
			}
		}
		if st.Empty() {
			return nil
		}
		ins, err := tx.PrepareContext(ctx, `INSERT INTO overlay_entries (chat_id, dir, path, kind, mode, mod_time, content) VALUES (?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer ins.Close()
		for _, f := range st.Files {
			kind, content := "file", f.Content
			if f.IsDir {
				kind, content = "dir", nil
			}
			if content == nil {
				content = []byte{}
			}
			if _, err := ins.ExecContext(ctx, chatID, st.Dir, f.Path, kind, uint32(f.Mode.Perm()), nano(f.ModTime), content); err != nil {
				return err
			}
		}
		for _, p := range st.Hidden {
			if _, err := ins.ExecContext(ctx, chatID, st.Dir, p, "whiteout", 0, 0, []byte{}); err != nil {
				return err
			}
		}
		seen, err := tx.PrepareContext(ctx, `INSERT INTO overlay_seen (chat_id, dir, path, present, is_dir, size, mod_time, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer seen.Close()
		for _, p := range st.Seen {
			if _, err := seen.ExecContext(ctx, chatID, st.Dir, p.Path, p.Exists, p.IsDir, p.Size, nano(p.ModTime), p.Hash); err != nil {
				return err
			}
		}
		return nil
	})
	return wrap("save overlay changes", err)
}
