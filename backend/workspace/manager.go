package workspace

import (
	"context"
	"fmt"
	"sync"

	"airlock/backend/chat"
	"airlock/backend/tools"
)

// ScratchStore keeps scratch workspaces between runs of the app.
type ScratchStore interface {
	LoadScratch(ctx context.Context, chatID string) ([]File, error)
	SaveScratch(ctx context.Context, chatID string, files []File) error
}

// Manager keeps each chat's workspace open while the app runs and saves
// scratch workspaces after every change. When its store also keeps
// checkpoints (CheckpointStore) and overlays (OverlayStore), a folder
// workspace's changes and an overlay's Apply are checkpointed first, and an
// overlay's pending changes are saved as they happen.
type Manager struct {
	store       ScratchStore
	checkpoints CheckpointStore // nil: none kept
	overlays    OverlayStore    // nil: pending changes live in memory only
	mu          sync.Mutex
	open        map[string]*Workspace // by chat ID
}

// NewManager makes a manager saving scratch files to store.
func NewManager(store ScratchStore) *Manager {
	m := &Manager{store: store, open: map[string]*Workspace{}}
	m.checkpoints, _ = store.(CheckpointStore)
	m.overlays, _ = store.(OverlayStore)
	return m
}

// Get returns the chat's workspace as its options describe it, opening it
// (or reopening it, when the options changed) as needed.
func (m *Manager) Get(ctx context.Context, chatID string, o chat.ChatOptions) (*Workspace, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	kind := Kind(o.WorkspaceKind)
	if kind == "" {
		kind = KindScratch
	}
	if w := m.open[chatID]; w != nil {
		// A folder removed (or replaced) since it was opened is opened
		// again, which says so, rather than kept working in what is gone.
		if w.Kind() == kind && (kind == KindScratch || w.Dir() == o.WorkspaceDir) && w.present() {
			return w, nil
		}
		_ = w.Close()
		delete(m.open, chatID)
	}
	var (
		w   *Workspace
		err error
	)
	switch kind {
	case KindScratch:
		var files []File
		if files, err = m.store.LoadScratch(ctx, chatID); err == nil {
			w, err = RestoreScratch(files)
		}
	case KindFolder:
		w, err = OpenFolder(o.WorkspaceDir)
	case KindOverlay:
		w, err = OpenOverlay(o.WorkspaceDir)
	default:
		err = fmt.Errorf("unknown workspace kind %q", kind)
	}
	if err != nil {
		return nil, err
	}
	if err := m.attach(ctx, chatID, w); err != nil {
		_ = w.Close()
		return nil, err
	}
	m.open[chatID] = w
	return w, nil
}

// Env is the tools' environment for a chat: its workspace, and a commit
// that saves a scratch workspace (or an overlay's pending changes) after a
// change. In a folder workspace every run keeps a checkpoint, keyed to the
// call ctx carries (tools.WithCall); its commit saves what the run left.
func (m *Manager) Env(ctx context.Context, chatID string, o chat.ChatOptions) (tools.Env, error) {
	w, err := m.Get(ctx, chatID, o)
	if err != nil {
		return tools.Env{}, err
	}
	env := tools.Env{FS: w.FS(), Resolve: w.Resolve}
	switch w.Kind() {
	case KindScratch:
		env.Commit = func() error { return m.save(context.Background(), chatID, w) }
	case KindFolder, KindOverlay:
		m.keepEnv(ctx, chatID, w, &env)
	}
	return env, nil
}

func (m *Manager) save(ctx context.Context, chatID string, w *Workspace) error {
	files, err := w.Snapshot()
	if err != nil {
		return err
	}
	return m.store.SaveScratch(ctx, chatID, files)
}

// ResetScratch empties a chat's scratch workspace.
func (m *Manager) ResetScratch(ctx context.Context, chatID string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if w := m.open[chatID]; w != nil {
		_ = w.Close()
		delete(m.open, chatID)
	}
	return m.store.SaveScratch(ctx, chatID, nil)
}

// Forget closes a chat's workspace if it is open (the chat went to the
// Trash): what it holds is saved already; Get opens it again when needed.
func (m *Manager) Forget(chatID string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if w := m.open[chatID]; w != nil {
		_ = w.Close()
		delete(m.open, chatID)
	}
}

// Close closes every open workspace. An overlay's pending changes stay
// saved (when the store keeps them) for the next run.
func (m *Manager) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, w := range m.open {
		_ = w.Close()
		delete(m.open, id)
	}
}
