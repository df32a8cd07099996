package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/spf13/afero"

	"airlock/backend/chat"
)

// Undo codes.
const (
	CodeUndoConflict    = "undo_conflict"    // a path changed since the change: nothing was restored
	CodeUndoUnavailable = "undo_unavailable" // undone already, dropped, incomplete, or a file not kept
)

// UndoResult says what an undo put back.
type UndoResult struct {
	ID       string   `json:"id"`
	ChatID   string   `json:"chatId"`
	Restored []string `json:"restored"`
}

// UndoConflict is a path that no longer holds what the change left there.
type UndoConflict struct {
	Path   string `json:"path"`
	Reason string `json:"reason"` // "changed", "deleted", "created", "unexpected" (a folder holds new entries)
	// Extra names what a folder now holds that the change did not make.
	Extra string `json:"extra,omitempty"`
}

// UndoConflictError is Undo's refusal: which paths changed since. Nothing
// was restored.
type UndoConflictError struct {
	Paths []UndoConflict
}

func (e *UndoConflictError) Code() string { return CodeUndoConflict }

func (e *UndoConflictError) Error() string {
	parts := make([]string, len(e.Paths))
	for i, c := range e.Paths {
		switch c.Reason {
		case "deleted":
			parts[i] = c.Path + " (deleted since)"
		case "created":
			parts[i] = c.Path + " (created since)"
		case "unexpected":
			parts[i] = c.Path + " (now also holds " + c.Extra + ")"
		default:
			parts[i] = c.Path + " (changed since)"
		}
	}
	what := "1 path has"
	if len(e.Paths) != 1 {
		what = Commas(int64(len(e.Paths))) + " paths have"
	}
	return fmt.Sprintf("Not undone: %s changed since this change was made: %s. Nothing was restored; "+
		"look at the files, and undo again only if you want to lose what changed since.", what, strings.Join(parts, "; "))
}

// Undo puts back what a checkpoint kept, if every path the change touched
// still holds what the change left there; otherwise it restores nothing
// and says which paths changed (*UndoConflictError). A done undo is
// recorded, and the checkpoint's copies are dropped. The folder is opened
// by its path; Manager.Undo works in the folder its tools have open.
func Undo(ctx context.Context, store CheckpointStore, id string) (UndoResult, error) {
	return undoIn(ctx, store, id, nil, nil)
}

// undoIn is Undo in the folder rootOf gives for the checkpoint (the one
// the chat's tools hold open: the same jail, even when the folder's path,
// or a parent of it, has since been made a link to somewhere else); when
// it gives none, the folder is opened by its path. look, when set, sees the
// folder (its filesystem, jailed) once every path is known to hold what the
// change left, before anything is put back; an error from it restores
// nothing.
func undoIn(ctx context.Context, store CheckpointStore, id string, rootOf func(Checkpoint) *os.Root, look func(afero.Fs, Checkpoint) error) (UndoResult, error) {
	undoMu.Lock() // one at a time: a second click waits, then finds it undone
	defer undoMu.Unlock()
	res := UndoResult{ID: id, Restored: []string{}}
	cp, err := store.GetCheckpoint(ctx, id)
	if err != nil {
		return res, err
	}
	res.ChatID = cp.ChatID
	if b := cp.Blocker(); b != "" {
		return res, errf(CodeUndoUnavailable, chat.ErrInvalid, "%s", blockerMessage(cp, b))
	}
	var root *os.Root
	if rootOf != nil {
		root = rootOf(cp)
	}
	if root == nil {
		if _, root, err = openRoot(cp.Dir); err != nil {
			return res, err
		}
		defer root.Close()
	}
	rfs := &rootFs{root: root}
	if res.Restored, err = undoOn(&jailFs{inner: rfs}, rfs, cp, look); err != nil {
		return res, err
	}
	if err := store.MarkCheckpointUndone(ctx, id, chat.Now()); err != nil {
		return res, fmt.Errorf("the files were restored, but the undo could not be recorded: %w", err)
	}
	return res, nil
}

var undoMu sync.Mutex

func blockerMessage(cp Checkpoint, b string) string {
	switch b {
	case BlockUndone:
		return "this change was already undone"
	case BlockDropped:
		return "the copies of this change were dropped to keep the chat's checkpoints under " + HumanSize(CheckpointChatMax) + "; it cannot be undone"
	case BlockIncomplete:
		return "Airlock stopped before this change finished, so it cannot tell what the change left; it cannot be undone"
	}
	for _, p := range cp.Paths {
		if !p.Kept {
			return p.Path + ": " + p.Note
		}
	}
	return "this change cannot be undone"
}

func depth(p string) int { return strings.Count(p, "/") }

// undoOn checks every path, then restores them: what the change created
// is removed (deepest first), folders it removed come back (shallowest
// first), then files and links, then folder modes.
func undoOn(fsys afero.Fs, links afero.Linker, cp Checkpoint, look func(afero.Fs, Checkpoint) error) ([]string, error) {
	in := map[string]bool{}
	for _, p := range cp.Paths {
		if c, err := CleanPath(p.Path); err != nil || c != p.Path || c == "." {
			return nil, errf(CodePathInvalid, chat.ErrInvalid, "the checkpoint has a bad path %s", quote(p.Path))
		}
		in[p.Path] = true
	}
	if !cp.Complete {
		// Cut short before its "after" was saved: what is there now is what
		// the change left (the whole-file writes leave no torn file).
		var touched []CheckpointPath
		for _, p := range cp.Paths {
			cur, _, _ := imageOf(fsys, p.Path, p.Follow, 0)
			if !p.Before.Same(cur) {
				p.After = cur
				touched = append(touched, p)
			}
		}
		cp.Paths = touched
	}
	var conflicts []UndoConflict
	for _, p := range cp.Paths {
		cur, _, _ := imageOf(fsys, p.Path, p.Follow, 0)
		if !p.After.Same(cur) {
			reason := "changed"
			switch {
			case p.After.Exists() && !cur.Exists():
				reason = "deleted"
			case !p.After.Exists() && cur.Exists():
				reason = "created"
			}
			conflicts = append(conflicts, UndoConflict{Path: p.Path, Reason: reason})
			continue
		}
		// A folder the change made goes away: it must hold only what the change made.
		if cur.Kind == EntryDir && p.Before.Kind != EntryDir {
			if extra := unexpected(fsys, p.Path, in); extra != "" {
				conflicts = append(conflicts, UndoConflict{Path: p.Path, Reason: "unexpected", Extra: extra})
			}
		}
	}
	if len(conflicts) > 0 {
		sort.Slice(conflicts, func(i, j int) bool { return conflicts[i].Path < conflicts[j].Path })
		return nil, &UndoConflictError{Paths: conflicts}
	}
	if look != nil {
		if err := look(fsys, cp); err != nil {
			return nil, err
		}
	}

	ps := append([]CheckpointPath(nil), cp.Paths...)
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Path < ps[j].Path })
	var restored []string
	fail := func(p string, err error) ([]string, error) {
		return restored, errf(CodeIO, err, "undo stopped at %s (%s); %d of %d paths were restored before it",
			p, scrubOSError(err), len(restored), len(ps))
	}
	done := map[string]bool{}
	mark := func(p string) {
		if !done[p] {
			done[p] = true
			restored = append(restored, p)
		}
	}
	// 1. Remove what is there now and is not to stay: deepest first.
	for i := len(ps) - 1; i >= 0; i-- {
		p := ps[i]
		if !p.After.Exists() || (p.Before.Kind == p.After.Kind && p.Before.Kind != EntryLink) {
			continue
		}
		if err := fsys.Remove(FSName(p.Path)); err != nil && !isMissingErr(err) {
			return fail(p.Path, err)
		}
		mark(p.Path)
	}
	// 2. Folders, shallowest first.
	for _, p := range ps {
		if p.Before.Kind != EntryDir || p.After.Kind == EntryDir {
			continue
		}
		if err := fsys.MkdirAll(FSName(p.Path), p.Before.Mode|0o700); err != nil {
			return fail(p.Path, err)
		}
		mark(p.Path)
	}
	// 3. Files and links.
	for _, p := range ps {
		switch p.Before.Kind {
		case EntryFile:
			if err := writeAtomic(fsys, p.Path, p.Content, p.Before.Mode); err != nil {
				return fail(p.Path, err)
			}
		case EntryLink:
			if err := fsys.MkdirAll(FSName(ParentOf(p.Path)), 0o755); err != nil {
				return fail(p.Path, err)
			}
			if err := links.SymlinkIfPossible(string(p.Content), FSName(p.Path)); err != nil {
				return fail(p.Path, err)
			}
		default:
			continue
		}
		mark(p.Path)
	}
	// 4. Folder modes, deepest first (a folder made without write permission last).
	for i := len(ps) - 1; i >= 0; i-- {
		p := ps[i]
		if p.Before.Kind != EntryDir {
			continue
		}
		if fi, err := fsys.Stat(FSName(p.Path)); err == nil && fi.Mode().Perm() != p.Before.Mode {
			if err := fsys.Chmod(FSName(p.Path), p.Before.Mode); err != nil {
				return fail(p.Path, err)
			}
			mark(p.Path)
		}
	}
	sort.Strings(restored)
	return restored, nil
}

// unexpected names an entry of the folder rel that is not among the
// checkpoint's paths ("" when there is none).
func unexpected(fsys afero.Fs, rel string, in map[string]bool) string {
	f, err := fsys.Open(FSName(rel))
	if err != nil {
		return ""
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	sort.Strings(names)
	for _, n := range names {
		if !in[JoinPath(rel, n)] {
			return JoinPath(rel, n)
		}
	}
	return ""
}

func isMissingErr(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}
