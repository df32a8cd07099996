package workspace

import (
	"context"
	"sort"
	"time"
)

// An overlay's pending changes are saved to the store as they happen (after
// every tool that changes files, and after Apply and Discard), and read
// back when the chat's workspace opens again: quitting, a crash or kill -9
// loses nothing the model wrote and the user has not reviewed.

// OverlayState is an overlay's pending changes as the store keeps them.
type OverlayState struct {
	Dir    string     // the folder under the overlay
	Files  []File     // the layer: folders and files as the model left them
	Hidden []string   // whiteouts: paths of the folder the model deleted
	Seen   []SeenPath // what the disk held when the overlay first touched each path
}

// SeenPath is what a path of the folder held when the overlay first touched
// it; Apply compares the disk with it to refuse files changed meanwhile.
type SeenPath struct {
	Path    string
	Exists  bool
	IsDir   bool
	Size    int64
	ModTime time.Time
	Hash    []byte // SHA-256 of the content; nil when it was not read
}

// Empty says there is nothing to keep.
func (s OverlayState) Empty() bool {
	return len(s.Files) == 0 && len(s.Hidden) == 0 && len(s.Seen) == 0
}

// OverlayStore keeps the pending changes of overlays, per chat and folder.
type OverlayStore interface {
	LoadOverlay(ctx context.Context, chatID, dir string) (OverlayState, error)
	// SaveOverlay replaces what is kept for the chat and st.Dir (an empty
	// state removes it).
	SaveOverlay(ctx context.Context, chatID string, st OverlayState) error
}

// state describes the pending changes (o.mu held).
func (o *overlayFs) state(dir string) (OverlayState, error) {
	st := OverlayState{Dir: dir}
	files, err := snapshot(o.layer, 0)
	if err != nil {
		return st, err
	}
	st.Files = files
	for p := range o.hidden {
		st.Hidden = append(st.Hidden, p)
	}
	sort.Strings(st.Hidden)
	for p, d := range o.seen {
		s := SeenPath{Path: p, Exists: d.exists, IsDir: d.isDir, Size: d.size, ModTime: d.modTime}
		if d.hashed {
			s.Hash = append([]byte(nil), d.hash[:]...)
		}
		st.Seen = append(st.Seen, s)
	}
	sort.Slice(st.Seen, func(i, j int) bool { return st.Seen[i].Path < st.Seen[j].Path })
	return st, nil
}

// restoreState puts saved pending changes back (on an overlay just opened).
// Paths are checked like any other: a tampered row cannot name "../x".
func (o *overlayFs) restoreState(st OverlayState) error {
	layer, err := restore(st.Files, 0, "overlay changes")
	if err != nil {
		return err
	}
	hidden := map[string]bool{}
	for _, p := range st.Hidden {
		c, err := CleanPath(p)
		if err != nil || c == "." {
			return errf(CodePathInvalid, err, "the saved overlay changes have a bad deletion %s", quote(p))
		}
		hidden[c] = true
	}
	seen := map[string]diskState{}
	for _, s := range st.Seen {
		c, err := CleanPath(s.Path)
		if err != nil || c == "." {
			return errf(CodePathInvalid, err, "the saved overlay changes have a bad entry %s", quote(s.Path))
		}
		d := diskState{exists: s.Exists, isDir: s.IsDir, size: s.Size, modTime: s.ModTime}
		if len(s.Hash) == len(d.hash) {
			copy(d.hash[:], s.Hash)
			d.hashed = true
		}
		seen[c] = d
	}
	o.layer, o.hidden, o.seen = layer, hidden, seen
	return nil
}

// keeper is what a Manager gives a workspace: where its checkpoints and
// pending changes are kept.
type keeper struct {
	chatID      string
	checkpoints CheckpointStore // nil: none kept
	overlays    OverlayStore    // nil: pending changes live in memory only
}

// SaveOverlay saves an overlay's pending changes (nothing to do for the
// other kinds, or when nothing keeps them).
func (w *Workspace) SaveOverlay() error {
	if w.overlay == nil {
		return nil
	}
	w.overlay.mu.Lock()
	defer w.overlay.mu.Unlock()
	return w.saveOverlayLocked()
}

func (w *Workspace) saveOverlayLocked() error {
	if w.overlay == nil || w.keep == nil || w.keep.overlays == nil {
		return nil
	}
	st, err := w.overlay.state(w.dir)
	if err != nil {
		return err
	}
	return w.keep.overlays.SaveOverlay(context.Background(), w.keep.chatID, st)
}

// applyKept applies (o.mu held) with a checkpoint of what the disk held
// before, then saves what is still pending.
func (w *Workspace) applyKept(paths []string) error {
	var rec *checkpointFs
	if w.keep != nil && w.keep.checkpoints != nil {
		rec = newCheckpointFs(w.overlay.disk, w.keep.checkpoints, Checkpoint{ChatID: w.keep.chatID, Tool: ToolApply, Dir: w.dir})
		disk := w.overlay.disk
		w.overlay.disk = rec
		defer func() { w.overlay.disk = disk }()
	}
	err := w.overlay.apply(paths)
	if rec != nil {
		if ferr := rec.Finish(); ferr != nil && err == nil {
			err = errf(CodeIO, ferr, "the changes were applied, but %v", ferr)
		}
	}
	if serr := w.saveOverlayLocked(); serr != nil && err == nil {
		err = errf(CodeIO, serr, "the changes were applied, but what is still pending could not be saved: %v", serr)
	}
	return err
}
