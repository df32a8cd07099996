package workspace

import (
	"context"
	"fmt"
	"os"

	"airlock/backend/tools"
)

// attach gives a workspace just opened its keeper, and an overlay the
// pending changes saved for this chat and folder.
func (m *Manager) attach(ctx context.Context, chatID string, w *Workspace) error {
	w.keep = &keeper{chatID: chatID, checkpoints: m.checkpoints, overlays: m.overlays}
	if w.overlay == nil || m.overlays == nil {
		return nil
	}
	st, err := m.overlays.LoadOverlay(ctx, chatID, w.dir)
	if err != nil {
		return fmt.Errorf("the pending changes saved for this overlay could not be read: %w", err)
	}
	if st.Empty() {
		return nil
	}
	w.overlay.mu.Lock()
	defer w.overlay.mu.Unlock()
	return w.overlay.restoreState(st)
}

// keepEnv sets what a run keeps in a folder or overlay workspace.
func (m *Manager) keepEnv(ctx context.Context, chatID string, w *Workspace, env *tools.Env) {
	switch {
	case w.Kind() == KindFolder && m.checkpoints != nil:
		call := tools.CallFrom(ctx)
		rec := newCheckpointFs(w.FS(), m.checkpoints, Checkpoint{ChatID: chatID, CallID: call.ID, Tool: call.Tool, Dir: w.Dir()})
		env.FS, env.Commit = rec, rec.Finish
	case w.Kind() == KindOverlay && m.overlays != nil:
		env.Commit = w.SaveOverlay
	}
}

// openRootOf is the folder the checkpoint's chat has open on its folder,
// if it does: the root its tools run in.
func (m *Manager) openRootOf(cp Checkpoint) *os.Root {
	m.mu.Lock()
	defer m.mu.Unlock()
	if w := m.open[cp.ChatID]; w != nil && w.root != nil && w.dir == cp.Dir {
		return w.root
	}
	return nil
}
