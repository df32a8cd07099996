package store

import (
	"context"
	"database/sql"
	"io/fs"
	"time"

	"airlock/backend/chat"
	"airlock/backend/workspace"
)

// Checkpoints: what a real folder held before a change (workspace.Checkpoint).
// The Store is the workspace.CheckpointStore the app's workspace manager uses.

var _ workspace.CheckpointStore = (*Store)(nil)

func nano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNano(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

// CreateCheckpoint saves a new, incomplete checkpoint with its first paths.
func (s *Store) CreateCheckpoint(ctx context.Context, c *workspace.Checkpoint) error {
	id := chat.NewID()
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO checkpoints (id, chat_id, call_id, tool, dir, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			id, c.ChatID, c.CallID, c.Tool, c.Dir, c.CreatedAt); err != nil {
			return err
		}
		return insertCheckpointPaths(ctx, tx, id, c.Paths)
	})
	if err != nil {
		return wrap("save checkpoint", err)
	}
	c.ID = id
	return nil
}

// AddCheckpointPaths saves more paths of an incomplete checkpoint.
func (s *Store) AddCheckpointPaths(ctx context.Context, id string, paths []workspace.CheckpointPath) error {
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		var complete bool
		if err := tx.QueryRowContext(ctx, `SELECT complete FROM checkpoints WHERE id = ?`, id).Scan(&complete); err != nil {
			if isNoRows(err) {
				return notFound("checkpoint", id)
			}
			return err
		}
		if complete {
			return invalid("checkpoint %s is complete", id)
		}
		return insertCheckpointPaths(ctx, tx, id, paths)
	})
	return wrap("save checkpoint", err)
}

func insertCheckpointPaths(ctx context.Context, tx *sql.Tx, id string, paths []workspace.CheckpointPath) error {
	if len(paths) == 0 {
		return nil
	}
	var seq int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq) + 1, 0) FROM checkpoint_paths WHERE checkpoint_id = ?`, id).Scan(&seq); err != nil {
		return err
	}
	st, err := tx.PrepareContext(ctx, `INSERT INTO checkpoint_paths (checkpoint_id, seq, path, follow,
		before_kind, before_mode, before_size, before_mtime, before_hash, content, kept, note, note_text)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	var bytes int64
	for i, p := range paths {
		var content any // NULL unless kept
		if p.Kept && p.Content != nil {
			content = p.Content
			bytes += int64(len(p.Content))
		}
		b := p.Before
		if _, err := st.ExecContext(ctx, id, seq+i, p.Path, p.Follow, string(b.Kind), uint32(b.Mode.Perm()), b.Size, nano(b.ModTime),
			b.Hash, content, p.Kept, p.Note, textJSON(p.NoteText)); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `UPDATE checkpoints SET bytes = bytes + ? WHERE id = ?`, bytes, id)
	return err
}

// FinishCheckpoint saves the "after" of the paths given, forgets the
// others, and marks the checkpoint complete; with no path it is deleted.
func (s *Store) FinishCheckpoint(ctx context.Context, id string, paths []workspace.CheckpointPath) error {
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		if len(paths) == 0 {
			_, err := tx.ExecContext(ctx, `DELETE FROM checkpoints WHERE id = ?`, id)
			return err
		}
		keep := make(map[string]bool, len(paths))
		upd, err := tx.PrepareContext(ctx, `UPDATE checkpoint_paths SET after_kind = ?, after_mode = ?, after_size = ?, after_mtime = ?, after_hash = ?
			WHERE checkpoint_id = ? AND path = ?`)
		if err != nil {
			return err
		}
		defer upd.Close()
		for _, p := range paths {
			a := p.After
			if _, err := upd.ExecContext(ctx, string(a.Kind), uint32(a.Mode.Perm()), a.Size, nano(a.ModTime), a.Hash, id, p.Path); err != nil {
				return err
			}
			keep[p.Path] = true
		}
		// The paths the change left as they were are forgotten.
		rows, err := tx.QueryContext(ctx, `SELECT path FROM checkpoint_paths WHERE checkpoint_id = ?`, id)
		if err != nil {
			return err
		}
		var drop []string
		for rows.Next() {
			var p string
			if err := rows.Scan(&p); err != nil {
				rows.Close()
				return err
			}
			if !keep[p] {
				drop = append(drop, p)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, p := range drop {
			if _, err := tx.ExecContext(ctx, `DELETE FROM checkpoint_paths WHERE checkpoint_id = ? AND path = ?`, id, p); err != nil {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, `UPDATE checkpoints SET complete = 1,
			bytes = (SELECT COALESCE(SUM(length(content)), 0) FROM checkpoint_paths WHERE checkpoint_id = ?) WHERE id = ?`, id, id)
		if err != nil {
			return err
		}
		return mustAffect(res, "checkpoint", id)
	})
	return wrap("finish checkpoint", err)
}

// PruneCheckpoints drops the contents of the chat's oldest checkpoints
// until those kept add up to at most maxBytes.
func (s *Store) PruneCheckpoints(ctx context.Context, chatID string, maxBytes int64) (int, error) {
	dropped := 0
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, bytes FROM checkpoints WHERE chat_id = ? AND dropped_at = 0 AND undone_at = 0 AND bytes > 0 ORDER BY id`, chatID)
		if err != nil {
			return err
		}
		type row struct {
			id    string
			bytes int64
		}
		var all []row
		var total int64
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.id, &r.bytes); err != nil {
				rows.Close()
				return err
			}
			all = append(all, r)
			total += r.bytes
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		now := chat.Now()
		for _, r := range all {
			if total <= maxBytes {
				break
			}
			if _, err := tx.ExecContext(ctx, `UPDATE checkpoint_paths SET content = NULL WHERE checkpoint_id = ?`, r.id); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE checkpoints SET dropped_at = ? WHERE id = ?`, now, r.id); err != nil {
				return err
			}
			total -= r.bytes
			dropped++
		}
		return nil
	})
	return dropped, wrap("trim checkpoints", err)
}

// MarkCheckpointUndone records an undo and drops the checkpoint's contents
// (an undo is not undone).
func (s *Store) MarkCheckpointUndone(ctx context.Context, id string, at int64) error {
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE checkpoints SET undone_at = ? WHERE id = ? AND undone_at = 0`, at, id)
		if err != nil {
			return err
		}
		if err := mustAffect(res, "checkpoint", id); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE checkpoint_paths SET content = NULL WHERE checkpoint_id = ?`, id)
		return err
	})
	return wrap("record undo", err)
}

const checkpointCols = `id, chat_id, call_id, tool, dir, created_at, complete, bytes, undone_at, dropped_at`

func scanCheckpoint(sc interface{ Scan(...any) error }) (workspace.Checkpoint, error) {
	var c workspace.Checkpoint
	err := sc.Scan(&c.ID, &c.ChatID, &c.CallID, &c.Tool, &c.Dir, &c.CreatedAt, &c.Complete, &c.Bytes, &c.UndoneAt, &c.DroppedAt)
	return c, err
}

// GetCheckpoint returns a checkpoint with its paths and contents.
func (s *Store) GetCheckpoint(ctx context.Context, id string) (workspace.Checkpoint, error) {
	c, err := scanCheckpoint(s.db.QueryRowContext(ctx, `SELECT `+checkpointCols+` FROM checkpoints WHERE id = ?`, id))
	if isNoRows(err) {
		return c, notFound("checkpoint", id)
	}
	if err != nil {
		return c, wrap("read checkpoint", err)
	}
	c.Paths, err = checkpointPaths(ctx, s.db, id, true, -1)
	c.PathCount = len(c.Paths)
	return c, wrap("read checkpoint", err)
}

// ListCheckpoints returns a chat's newest checkpoints first (at most limit),
// each with its first pathLimit paths (those not kept first), without contents.
func (s *Store) ListCheckpoints(ctx context.Context, chatID string, limit, pathLimit int) ([]workspace.Checkpoint, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+checkpointCols+`, (SELECT count(*) FROM checkpoint_paths WHERE checkpoint_id = checkpoints.id)
		FROM checkpoints WHERE chat_id = ? ORDER BY id DESC LIMIT ?`, chatID, limit)
	if err != nil {
		return nil, wrap("list checkpoints", err)
	}
	var out []workspace.Checkpoint
	for rows.Next() {
		var c workspace.Checkpoint
		if err := rows.Scan(&c.ID, &c.ChatID, &c.CallID, &c.Tool, &c.Dir, &c.CreatedAt, &c.Complete, &c.Bytes, &c.UndoneAt, &c.DroppedAt, &c.PathCount); err != nil {
			rows.Close()
			return nil, wrap("list checkpoints", err)
		}
		out = append(out, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, wrap("list checkpoints", err)
	}
	for i := range out {
		if out[i].Paths, err = checkpointPaths(ctx, s.db, out[i].ID, false, pathLimit); err != nil {
			return nil, wrap("list checkpoints", err)
		}
	}
	return out, nil
}

// CheckpointTotals says how much a chat's checkpoints keep, and how many
// had their contents dropped to stay under the cap.
func (s *Store) CheckpointTotals(ctx context.Context, chatID string) (bytes int64, dropped int, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT COALESCE(SUM(CASE WHEN dropped_at = 0 AND undone_at = 0 THEN bytes ELSE 0 END), 0),
		COALESCE(SUM(dropped_at <> 0), 0) FROM checkpoints WHERE chat_id = ?`, chatID).Scan(&bytes, &dropped)
	return bytes, dropped, wrap("count checkpoints", err)
}

func checkpointPaths(ctx context.Context, q rowsQuerier, id string, withContent bool, limit int) ([]workspace.CheckpointPath, error) {
	// A listing shows the paths not kept first: whatever the limit, the
	// checkpoint's Blocker sees them.
	content, order := "NULL", "kept, seq"
	if withContent {
		content, order = "content", "seq"
	}
	rows, err := q.QueryContext(ctx, `SELECT path, follow, before_kind, before_mode, before_size, before_mtime, before_hash, `+content+`, content IS NOT NULL, kept, note, note_text,
		after_kind, after_mode, after_size, after_mtime, after_hash FROM checkpoint_paths WHERE checkpoint_id = ? ORDER BY `+order+` LIMIT ?`, id, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []workspace.CheckpointPath
	for rows.Next() {
		var p workspace.CheckpointPath
		var bk, ak string
		var bm, am uint32
		var bt, at int64
		var has bool
		if err := rows.Scan(&p.Path, &p.Follow, &bk, &bm, &p.Before.Size, &bt, &p.Before.Hash, &p.Content, &has, &p.Kept, &p.Note, textColumn{&p.NoteText},
			&ak, &am, &p.After.Size, &at, &p.After.Hash); err != nil {
			return nil, err
		}
		p.Before.Hash, p.After.Hash = nonEmpty(p.Before.Hash), nonEmpty(p.After.Hash)
		p.Before.Kind, p.Before.Mode, p.Before.ModTime = workspace.EntryKind(bk), fs.FileMode(bm), fromNano(bt)
		p.After.Kind, p.After.Mode, p.After.ModTime = workspace.EntryKind(ak), fs.FileMode(am), fromNano(at)
		if withContent && has && p.Content == nil {
			p.Content = []byte{} // kept, and empty
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// nonEmpty is nil for an empty hash (however the driver read a NULL).
func nonEmpty(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}
