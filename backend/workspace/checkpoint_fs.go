package workspace

import (
	"airlock/backend/uitext"
	"context"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/afero"
)

// checkpointFs is a real folder's filesystem that keeps a checkpoint: the
// first time an operation is about to change a path, what the path holds is
// saved to the store, and only then is the operation done. Reads pass
// straight through. Finish saves what the change left.
//
// Names arrive as the inner filesystem takes them (rooted, "/a/b"); a name
// that is not clean is passed on untouched, for the inner one to refuse.
type checkpointFs struct {
	inner afero.Fs
	store CheckpointStore
	meta  Checkpoint // chat, call, tool, folder

	mu     sync.Mutex
	id     string
	order  []string
	paths  map[string]*CheckpointPath // contents dropped once saved
	budget int64                      // content bytes this checkpoint may still keep
	done   bool
}

func newCheckpointFs(inner afero.Fs, store CheckpointStore, meta Checkpoint) *checkpointFs {
	return &checkpointFs{inner: inner, store: store, meta: meta, paths: map[string]*CheckpointPath{}, budget: CheckpointChatMax}
}

var (
	_ afero.Lstater    = (*checkpointFs)(nil)
	_ afero.LinkReader = (*checkpointFs)(nil)
)

// cleanRel returns the clean path a name stands for.
func cleanRel(name string) (string, bool) {
	n, err := jailName(name)
	if err != nil {
		return "", false
	}
	return relName(n), true
}

// want is one path to keep before an operation.
type want struct {
	rel    string
	follow bool
}

// keep saves the paths not kept yet. It fails (and the operation is not
// done) when the copy cannot be saved.
func (c *checkpointFs) keep(ws ...want) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var fresh []CheckpointPath
	for _, w := range ws {
		if w.rel == "." || c.paths[w.rel] != nil {
			continue
		}
		p := c.image(w)
		c.paths[w.rel] = &p
		c.order = append(c.order, w.rel)
		fresh = append(fresh, p)
	}
	if len(fresh) == 0 {
		return nil
	}
	ctx := context.Background()
	var err error
	if c.id == "" {
		cp := c.meta
		cp.CreatedAt, cp.Paths = time.Now().UnixMilli(), fresh
		if err = c.store.CreateCheckpoint(ctx, &cp); err == nil {
			c.id = cp.ID
		}
	} else {
		err = c.store.AddCheckpointPaths(ctx, c.id, fresh)
	}
	if err != nil {
		for _, p := range fresh {
			delete(c.paths, p.Path)
		}
		c.order = c.order[:len(c.order)-len(fresh)]
		return errf(CodeIO, err, "Airlock could not keep a copy of %s before changing it, so nothing was changed: %v", fresh[0].Path, err)
	}
	for _, p := range fresh {
		c.paths[p.Path].Content = nil // saved: no need to hold it
	}
	return nil
}

// image describes a path before the change, with its content when it can
// be kept.
func (c *checkpointFs) image(w want) CheckpointPath {
	p := CheckpointPath{Path: w.rel, Follow: w.follow, Kept: true}
	keep := min(int64(CheckpointFileMax), c.budget)
	img, data, err := imageOf(c.inner, w.rel, w.follow, max(keep, 1))
	p.Before = img
	switch {
	case err != nil:
		p.Kept = false
		p.noted(txtNoteUnreadable.With("reason", scrubOSError(err)))
	case img.Kind == EntryFile && data == nil && img.Size > CheckpointFileMax:
		p.Kept = false
		p.noted(txtNoteTooLarge.With("size", HumanSizeText(img.Size), "max", HumanSizeText(CheckpointFileMax)))
	case img.Kind == EntryFile && data == nil:
		p.Kept = false
		p.noted(txtNoteOverBudget.With("max", HumanSizeText(CheckpointChatMax)))
	case img.Kind == EntryFile || img.Kind == EntryLink:
		p.Content = data
		c.budget -= int64(len(data))
	}
	if p.Content == nil && (img.Kind == EntryFile || img.Kind == EntryLink) && p.Kept {
		p.Content = []byte{} // an empty file is kept as empty
	}
	return p
}

// tree lists rel and, for a folder (not followed through a link), everything
// under it, parents first.
func (c *checkpointFs) tree(rel string) []string {
	out := []string{rel}
	fi, _, err := lstat(c.inner, rel)
	if err != nil || !fi.IsDir() {
		return out
	}
	f, err := c.inner.Open(FSName(rel))
	if err != nil {
		return out
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return out
	}
	for _, n := range names {
		out = append(out, c.tree(JoinPath(rel, n))...)
	}
	return out
}

func lstat(fsys afero.Fs, rel string) (fs.FileInfo, bool, error) {
	if l, ok := fsys.(afero.Lstater); ok {
		return l.LstatIfPossible(FSName(rel))
	}
	fi, err := fsys.Stat(FSName(rel))
	return fi, false, err
}

func (c *checkpointFs) keepOne(name string, follow bool) error {
	rel, ok := cleanRel(name)
	if !ok {
		return nil
	}
	return c.keep(want{rel, follow})
}

func (c *checkpointFs) keepTree(name string) error {
	rel, ok := cleanRel(name)
	if !ok || rel == "." {
		return nil
	}
	var ws []want
	for _, p := range c.tree(rel) {
		ws = append(ws, want{p, false})
	}
	return c.keep(ws...)
}

// Finish saves the state the change left each path in, forgets the paths
// it left as they were, and keeps the chat's checkpoints under their cap.
// Nothing kept, nothing saved.
func (c *checkpointFs) Finish() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done || c.id == "" {
		c.done = true
		return nil
	}
	c.done = true
	// A change that cannot be undone (a file not kept) needs no hashes to
	// tell later changes apart: its files are only looked at, not read.
	read := int64(0)
	for _, rel := range c.order {
		if !c.paths[rel].Kept {
			read = -1
		}
	}
	var out []CheckpointPath
	for _, rel := range c.order {
		p := *c.paths[rel]
		after, _, _ := imageOf(c.inner, rel, p.Follow, read)
		if p.Before.Same(after) {
			continue
		}
		p.After = after
		out = append(out, p)
	}
	ctx := context.Background()
	if err := c.store.FinishCheckpoint(ctx, c.id, out); err != nil {
		return fmt.Errorf("keeping the checkpoint for undo: %w", err)
	}
	if len(out) > 0 {
		if _, err := c.store.PruneCheckpoints(ctx, c.meta.ChatID, CheckpointChatMax); err != nil {
			return fmt.Errorf("trimming the chat's checkpoints: %w", err)
		}
	}
	return nil
}

// ID is the checkpoint's id ("" while nothing was kept).
func (c *checkpointFs) ID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.id
}

// --- afero.Fs ----------------------------------------------------------

func (c *checkpointFs) Name() string { return "Checkpoint(" + c.inner.Name() + ")" }

func (c *checkpointFs) Create(name string) (afero.File, error) {
	return c.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (c *checkpointFs) Mkdir(name string, perm os.FileMode) error {
	if err := c.keepOne(name, false); err != nil {
		return err
	}
	return c.inner.Mkdir(name, perm)
}

// MkdirAll keeps the folders it is about to create (those missing).
func (c *checkpointFs) MkdirAll(name string, perm os.FileMode) error {
	if rel, ok := cleanRel(name); ok && rel != "." {
		var ws []want
		parts := strings.Split(rel, "/")
		for i := range parts {
			p := strings.Join(parts[:i+1], "/")
			if len(ws) == 0 {
				if fi, err := c.inner.Stat(FSName(p)); err == nil && fi.IsDir() {
					continue
				}
			}
			ws = append(ws, want{p, true})
		}
		if err := c.keep(ws...); err != nil {
			return err
		}
	}
	return c.inner.MkdirAll(name, perm)
}

func (c *checkpointFs) Open(name string) (afero.File, error) { return c.inner.Open(name) }

func (c *checkpointFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if flag&writeFlags != 0 {
		if err := c.keepOne(name, true); err != nil {
			return nil, err
		}
	}
	return c.inner.OpenFile(name, flag, perm)
}

func (c *checkpointFs) Remove(name string) error {
	if err := c.keepOne(name, false); err != nil {
		return err
	}
	return c.inner.Remove(name)
}

func (c *checkpointFs) RemoveAll(name string) error {
	if err := c.keepTree(name); err != nil {
		return err
	}
	return c.inner.RemoveAll(name)
}

// Rename keeps everything under the source, and every path the move will
// put something at (usually nothing was there).
func (c *checkpointFs) Rename(oldname, newname string) error {
	src, ok1 := cleanRel(oldname)
	dst, ok2 := cleanRel(newname)
	if ok1 && ok2 && src != "." && dst != "." {
		var ws []want
		for _, p := range c.tree(src) {
			ws = append(ws, want{p, false})
			ws = append(ws, want{dst + strings.TrimPrefix(p, src), false})
		}
		for _, p := range c.tree(dst) {
			ws = append(ws, want{p, false})
		}
		if err := c.keep(ws...); err != nil {
			return err
		}
	}
	return c.inner.Rename(oldname, newname)
}

func (c *checkpointFs) Stat(name string) (os.FileInfo, error) { return c.inner.Stat(name) }

func (c *checkpointFs) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	if l, ok := c.inner.(afero.Lstater); ok {
		return l.LstatIfPossible(name)
	}
	fi, err := c.inner.Stat(name)
	return fi, false, err
}

func (c *checkpointFs) ReadlinkIfPossible(name string) (string, error) {
	if l, ok := c.inner.(afero.LinkReader); ok {
		return l.ReadlinkIfPossible(name)
	}
	return "", &os.PathError{Op: "readlink", Path: name, Err: afero.ErrNoReadlink}
}

func (c *checkpointFs) Chmod(name string, mode os.FileMode) error {
	if err := c.keepOne(name, true); err != nil {
		return err
	}
	return c.inner.Chmod(name, mode)
}

func (c *checkpointFs) Chown(name string, uid, gid int) error {
	return c.inner.Chown(name, uid, gid)
}

func (c *checkpointFs) Chtimes(name string, atime, mtime time.Time) error {
	return c.inner.Chtimes(name, atime, mtime)
}

// Why a path of a checkpoint was not kept (shown in the undo history).
var (
	txtNoteUnreadable = uitext.Define("undo_note_unreadable", "could not be read before the change ({{reason}}); undo is not available for it")
	txtNoteTooLarge   = uitext.Define("undo_note_too_large", "too large to keep ({{size}}; the limit is {{max}}) — undo is not available for this file")
	txtNoteOverBudget = uitext.Define("undo_note_over_budget", "not kept: this change touched more than {{max}} of files — undo is not available for it")
)

// noted sets why p was not kept.
func (p *CheckpointPath) noted(t uitext.Text) { p.Note, p.NoteText = t.English, &t }
