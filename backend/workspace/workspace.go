// Package workspace is where the file tools act: every chat has one
// workspace, and nothing outside it is reachable.
//
// Three kinds:
//
//   - scratch: in memory (afero.MemMapFs), capped at ScratchMaxBytes;
//     Snapshot/Restore give the store a serialisable form so the files
//     survive a restart;
//   - folder: a real folder, jailed through os.Root (links that lead outside
//     are refused, race-free);
//   - overlay: a real folder read-only underneath, every write kept in a
//     layer on top; Changes lists them with diffs, Apply writes them to disk
//     (refusing files that changed on disk meanwhile), Discard drops them.
//
// Every name a tool passes to Workspace.FS goes through CleanPath first.
package workspace

import (
	"os"
	"path/filepath"
	"strconv"

	"github.com/spf13/afero"

	"airlock/backend/chat"
	"airlock/backend/uitext"
)

// Kind is how a workspace stores its files.
type Kind string

const (
	KindScratch Kind = "scratch"
	KindFolder  Kind = "folder"
	KindOverlay Kind = "overlay"
)

// Workspace is the file space of one chat.
type Workspace struct {
	kind    Kind
	dir     string // the real folder (folder and overlay)
	fs      afero.Fs
	mem     afero.Fs // scratch: the MemMapFs underneath
	root    *os.Root
	overlay *overlayFs
	keep    *keeper       // set by a Manager: checkpoints, saved pending changes
	swept   chan struct{} // closed when the sweep for left-over temporary files ends
}

// NewScratch returns an empty in-memory workspace.
func NewScratch() *Workspace {
	return scratchOn(afero.NewMemMapFs())
}

// RestoreScratch rebuilds a scratch workspace from a snapshot.
func RestoreScratch(files []File) (*Workspace, error) {
	mem, err := Restore(files)
	if err != nil {
		return nil, err
	}
	return scratchOn(mem), nil
}

func scratchOn(mem afero.Fs) *Workspace {
	return &Workspace{kind: KindScratch, mem: mem, fs: &jailFs{inner: &quotaFs{Fs: mem, limit: ScratchMaxBytes}}}
}

// OpenFolder opens a real folder as a workspace. The tools can read and
// write anything inside it and nothing outside it.
func OpenFolder(dir string) (*Workspace, error) {
	abs, root, err := openRoot(dir)
	if err != nil {
		return nil, err
	}
	w := &Workspace{kind: KindFolder, dir: abs, root: root, fs: &jailFs{inner: &rootFs{root: root}}}
	w.sweep() // what writes cut short left
	return w, nil
}

// OpenOverlay opens a real folder under an overlay: the tools see the
// folder and change only the overlay, until Apply.
func OpenOverlay(dir string) (*Workspace, error) {
	abs, root, err := openRoot(dir)
	if err != nil {
		return nil, err
	}
	ov := newOverlayFs(&rootFs{root: root})
	w := &Workspace{kind: KindOverlay, dir: abs, root: root, overlay: ov, fs: &jailFs{inner: ov}}
	w.sweep() // what an Apply cut short left
	return w, nil
}

// The sentences of a folder that cannot be the workspace.
var (
	txtChooseFolder  = uitext.Define("ws_choose_folder", "choose a folder for the workspace")
	txtFolderError   = uitext.Define("ws_folder_error", "folder {{folder}}: {{reason}}")
	txtFolderMissing = uitext.Define("ws_folder_missing", "folder {{folder}} does not exist")
	txtFolderIsFile  = uitext.Define("ws_folder_is_file", "{{folder}} is a file, not a folder")
)

func openRoot(dir string) (string, *os.Root, error) {
	if dir == "" {
		return "", nil, coded(CodeInvalidArgs, chat.ErrInvalid, txtChooseFolder)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", nil, coded(CodeInvalidArgs, chat.ErrInvalid, txtFolderError, "folder", strconv.Quote(dir), "reason", err.Error())
	}
	fi, err := os.Stat(abs)
	if err != nil {
		if os.IsNotExist(err) {
			return "", nil, coded(CodeNotFound, chat.ErrNotFound, txtFolderMissing, "folder", abs)
		}
		return "", nil, coded(CodeIO, err, txtFolderError, "folder", abs, "reason", err.Error())
	}
	if !fi.IsDir() {
		return "", nil, coded(CodeNotDirectory, chat.ErrInvalid, txtFolderIsFile, "folder", abs)
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return "", nil, coded(CodeIO, err, txtFolderError, "folder", abs, "reason", err.Error())
	}
	return abs, root, nil
}

// present says whether the folder the workspace opened is still at its
// path, as the same folder (always true for scratch).
func (w *Workspace) present() bool {
	if w.root == nil {
		return true
	}
	at, err := os.Stat(w.dir)
	if err != nil {
		return false
	}
	held, err := w.root.Stat(".")
	return err == nil && os.SameFile(at, held)
}

// CheckFolder says whether dir can be a workspace's folder now (it
// exists, is a folder, and can be opened), with the reason when not.
func CheckFolder(dir string) error {
	_, root, err := openRoot(dir)
	if err != nil {
		return err
	}
	return root.Close()
}

// Kind says how the workspace stores its files.
func (w *Workspace) Kind() Kind { return w.kind }

// Dir is the real folder of a folder or overlay workspace ("" for scratch).
func (w *Workspace) Dir() string { return w.dir }

// FS is the filesystem the tools use. Names are relative to the workspace
// root (a leading "/" means the root, afero's convention); every name goes
// through CleanPath, and hostile ones fail with a *chat.Error.
func (w *Workspace) FS() afero.Fs { return w.fs }

// Close releases the folder handle. The workspace is unusable afterwards.
func (w *Workspace) Close() error {
	if w.swept != nil {
		<-w.swept
	}
	if w.root != nil {
		return w.root.Close()
	}
	return nil
}

// Snapshot returns the files of a scratch workspace for the store.
func (w *Workspace) Snapshot() ([]File, error) {
	if w.kind != KindScratch {
		return nil, errf(CodeInvalidArgs, chat.ErrInvalid, "only a scratch workspace is saved as a snapshot; a %s workspace lives on disk", w.kind)
	}
	return Snapshot(w.mem)
}

func (w *Workspace) requireOverlay() error {
	if w.overlay == nil {
		return errf(CodeNotOverlay, chat.ErrInvalid,
			"this chat's workspace is a %s workspace; only an overlay has changes to review", w.kind)
	}
	return nil
}

// Changes lists what the overlay would change on disk, with diffs.
func (w *Workspace) Changes() ([]Change, error) {
	if err := w.requireOverlay(); err != nil {
		return nil, err
	}
	w.overlay.mu.Lock()
	defer w.overlay.mu.Unlock()
	cs, err := w.overlay.changes(true)
	if err != nil {
		return nil, FSError(".", err)
	}
	return cs, nil
}

// Apply writes the pending changes at or beneath the given paths to disk
// (all of them when none is given). A file that changed on disk since the
// model read it is not written: its error (code apply_conflict) says so,
// and its change stays pending; the others are applied. Opened by a
// Manager, what the disk held before is kept as a checkpoint (Undo), and
// what is still pending is saved.
func (w *Workspace) Apply(paths ...string) error {
	if err := w.requireOverlay(); err != nil {
		return err
	}
	w.overlay.mu.Lock()
	defer w.overlay.mu.Unlock()
	if err := w.applyKept(paths); err != nil {
		return FSError(".", err)
	}
	return nil
}

// Discard drops the pending changes at or beneath the given paths (all of
// them when none is given). The disk is not touched.
func (w *Workspace) Discard(paths ...string) error {
	if err := w.requireOverlay(); err != nil {
		return err
	}
	w.overlay.mu.Lock()
	defer w.overlay.mu.Unlock()
	if err := w.overlay.discard(paths); err != nil {
		return err
	}
	return w.saveOverlayLocked()
}
