package workspace

import (
	"time"

	"github.com/spf13/afero"
)

// Internals the external tests (package workspace_test) look at.

var JailName = jailName

// NewScratchCapped is a scratch workspace holding at most limit bytes: the
// real cap's code path, on a size a test can fill.
func NewScratchCapped(limit int64) *Workspace {
	mem := afero.NewMemMapFs()
	return &Workspace{kind: KindScratch, mem: mem, fs: &jailFs{inner: &quotaFs{Fs: mem, limit: limit}}}
}

// CheckpointFsWithBudget is a folder workspace's filesystem keeping a
// checkpoint for chatID that may keep at most budget bytes of contents.
func CheckpointFsWithBudget(w *Workspace, store CheckpointStore, chatID string, budget int64) (afero.Fs, func() error) {
	c := newCheckpointFs(w.FS(), store, Checkpoint{ChatID: chatID, Tool: "test", Dir: w.Dir()})
	c.budget = budget
	return c, c.Finish
}

// WaitSweep waits for the sweep for left-over temporary files to end.
func (w *Workspace) WaitSweep() { <-w.swept }

// SetStaleTempAge sets how old a temporary file must be for an open to
// clear it, and returns the restore.
func SetStaleTempAge(d time.Duration) func() {
	old := staleTempAge
	staleTempAge = d
	return func() { staleTempAge = old }
}
