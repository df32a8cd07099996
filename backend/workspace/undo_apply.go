package workspace

import (
	"context"
	"fmt"
	"io/fs"
	"sort"

	"github.com/spf13/afero"

	"airlock/backend/chat"
)

// Undoing an overlay's Apply takes the change off the disk and puts it back
// in the overlay, waiting for review again, as it was before Apply: what
// the Apply wrote is read from the disk (Undo has just checked that it is
// still what the Apply left) before the disk is restored.

// staged is one path of an Apply as the overlay held it.
type staged struct {
	path    string
	kind    EntryKind // what the Apply left: a file, a folder, or nothing (deleted)
	before  EntryKind
	content []byte
	mode    fs.FileMode
}

// readApplied reads what an Apply left at its paths.
func readApplied(fsys afero.Fs, cp Checkpoint) ([]staged, error) {
	var out []staged
	for _, p := range cp.Paths {
		s := staged{path: p.Path, kind: p.After.Kind, before: p.Before.Kind, mode: p.After.Mode}
		switch p.After.Kind {
		case EntryFile:
			data, err := afero.ReadFile(fsys, FSName(p.Path))
			if err != nil {
				return nil, fmt.Errorf("Not undone: %s could not be read to put it back among the overlay's changes: %w", p.Path, err)
			}
			s.content = data
		case EntryDir, EntryAbsent:
		default:
			continue // a link is not something an overlay holds
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out, nil
}

// restage puts an Apply's paths back in the layer (o.mu held). The disk
// holds again what it held before, which becomes what the overlay saw.
func (o *overlayFs) restage(paths []staged) error {
	for _, s := range paths {
		switch {
		case s.kind == EntryFile:
			if err := o.ensureLayerDir(ParentOf(s.path)); err != nil {
				return err
			}
			if err := afero.WriteFile(o.layer, FSName(s.path), s.content, s.mode); err != nil {
				return err
			}
			delete(o.hidden, s.path)
		case s.kind == EntryDir && s.before != EntryDir:
			if err := o.ensureLayerDir(s.path); err != nil {
				return err
			}
		case s.kind == EntryAbsent && s.before != EntryAbsent:
			o.hidden[s.path] = true // a deleted folder: it and each path under it, as the overlay hides them
		}
		if st, err := o.diskStat(s.path, true); err == nil {
			o.seen[s.path] = st
		}
	}
	return nil
}

// Undo undoes a checkpoint (see Undo). Undoing an overlay's Apply also puts
// the change back in the chat's overlay, waiting for review again.
func (m *Manager) Undo(ctx context.Context, id string) (UndoResult, error) {
	if m.checkpoints == nil {
		return UndoResult{ID: id, Restored: []string{}}, errf(CodeUndoUnavailable, chat.ErrInvalid, "checkpoints are not kept here")
	}
	var (
		applied []staged
		cp      Checkpoint
	)
	look := func(fsys afero.Fs, c Checkpoint) error {
		if c.Tool != ToolApply || m.overlays == nil {
			return nil
		}
		var err error
		cp = c
		applied, err = readApplied(fsys, c)
		return err
	}
	res, err := undoIn(ctx, m.checkpoints, id, m.openRootOf, look)
	if applied == nil || len(res.Restored) == 0 {
		return res, err
	}
	if rerr := m.restage(ctx, cp, applied); rerr != nil && err == nil {
		err = errf(CodeIO, rerr, "the folder is as it was before the Apply, but the changes could not be put back for review: %v", rerr)
	}
	return res, err
}

// restage puts an undone Apply's changes back in the overlay of the chat
// on that folder: the one open, or the one saved for it.
func (m *Manager) restage(ctx context.Context, cp Checkpoint, applied []staged) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	w := m.open[cp.ChatID]
	if w == nil || w.overlay == nil || w.dir != cp.Dir {
		var err error
		if w, err = OpenOverlay(cp.Dir); err != nil {
			return err
		}
		defer w.Close()
		if err := m.attach(ctx, cp.ChatID, w); err != nil {
			return err
		}
	}
	w.overlay.mu.Lock()
	defer w.overlay.mu.Unlock()
	if err := w.overlay.restage(applied); err != nil {
		return err
	}
	return w.saveOverlayLocked()
}
