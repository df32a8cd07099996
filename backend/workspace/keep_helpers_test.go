package workspace_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/tools"
	. "airlock/backend/workspace"
	"airlock/backend/workspace/workspacetest"
)

// memKeep is a store in memory: scratch files, checkpoints and overlay
// layers, with the semantics of the SQLite one.
type memKeep struct {
	memScratch
	mu       sync.Mutex
	n        int
	cps      map[string]*Checkpoint
	overlays map[string]OverlayState // by chat + "\x00" + dir
	// onSave, when set, runs as the first copies of a checkpoint are saved
	// (before the operation they precede).
	onSave func(paths []CheckpointPath)
}

func newMemKeep() *memKeep {
	return &memKeep{memScratch: memScratch{}, cps: map[string]*Checkpoint{}, overlays: map[string]OverlayState{}}
}

func clonePaths(ps []CheckpointPath) []CheckpointPath {
	out := make([]CheckpointPath, len(ps))
	for i, p := range ps {
		p.Content = append([]byte(nil), p.Content...)
		if !p.Kept {
			p.Content = nil
		}
		out[i] = p
	}
	return out
}

func (m *memKeep) CreateCheckpoint(_ context.Context, c *Checkpoint) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.onSave != nil {
		m.onSave(c.Paths)
	}
	m.n++
	c.ID = fmt.Sprintf("cp%04d", m.n)
	cp := *c
	cp.Paths = clonePaths(c.Paths)
	m.cps[c.ID] = &cp
	return nil
}

func (m *memKeep) AddCheckpointPaths(_ context.Context, id string, ps []CheckpointPath) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.onSave != nil {
		m.onSave(ps)
	}
	c := m.cps[id]
	if c == nil || c.Complete {
		return fmt.Errorf("no open checkpoint %s", id)
	}
	c.Paths = append(c.Paths, clonePaths(ps)...)
	return nil
}

func (m *memKeep) FinishCheckpoint(_ context.Context, id string, ps []CheckpointPath) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.cps[id]
	if c == nil {
		return fmt.Errorf("no checkpoint %s", id)
	}
	if len(ps) == 0 {
		delete(m.cps, id)
		return nil
	}
	after := map[string]Image{}
	for _, p := range ps {
		after[p.Path] = p.After
	}
	var kept []CheckpointPath
	c.Bytes = 0
	for _, p := range c.Paths {
		if a, ok := after[p.Path]; ok {
			p.After = a
			kept = append(kept, p)
			c.Bytes += int64(len(p.Content))
		}
	}
	c.Paths, c.Complete, c.PathCount = kept, true, len(kept)
	return nil
}

func (m *memKeep) PruneCheckpoints(_ context.Context, chatID string, maxBytes int64) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var ids []string
	var total int64
	for id, c := range m.cps {
		if c.ChatID == chatID && c.DroppedAt == 0 && c.UndoneAt == 0 && c.Bytes > 0 {
			ids = append(ids, id)
			total += c.Bytes
		}
	}
	sort.Strings(ids)
	n := 0
	for _, id := range ids {
		if total <= maxBytes {
			break
		}
		c := m.cps[id]
		for i := range c.Paths {
			c.Paths[i].Content = nil
		}
		c.DroppedAt = chat.Now()
		total -= c.Bytes
		n++
	}
	return n, nil
}

func (m *memKeep) GetCheckpoint(_ context.Context, id string) (Checkpoint, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.cps[id]
	if c == nil {
		return Checkpoint{}, chat.Errorf("not_found", chat.ErrNotFound, "checkpoint %s not found", id)
	}
	cp := *c
	cp.Paths = clonePaths(c.Paths)
	return cp, nil
}

func (m *memKeep) MarkCheckpointUndone(_ context.Context, id string, at int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.cps[id]
	if c == nil || c.UndoneAt != 0 {
		return fmt.Errorf("checkpoint %s cannot be marked", id)
	}
	c.UndoneAt = at
	return nil
}

func (m *memKeep) LoadOverlay(_ context.Context, chatID, dir string) (OverlayState, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	st, ok := m.overlays[chatID+"\x00"+dir]
	if !ok {
		return OverlayState{Dir: dir}, nil
	}
	// Through JSON, like a trip through the database.
	b, _ := json.Marshal(st)
	var out OverlayState
	err := json.Unmarshal(b, &out)
	return out, err
}

func (m *memKeep) SaveOverlay(_ context.Context, chatID string, st OverlayState) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if st.Empty() {
		delete(m.overlays, chatID+"\x00"+st.Dir)
	} else {
		m.overlays[chatID+"\x00"+st.Dir] = st
	}
	return nil
}

// list returns the chat's checkpoints, oldest first.
func (m *memKeep) list(chatID string) []Checkpoint {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Checkpoint
	for _, c := range m.cps {
		if c.ChatID == chatID {
			out = append(out, *c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// runCall runs a tool as the engine does: the env is built for the call,
// and committed after the run.
func runCall(t *testing.T, m *Manager, chatID string, o chat.ChatOptions, callID, name string, args any) (string, error) {
	t.Helper()
	ctx := tools.WithCall(context.Background(), tools.CallInfo{ID: callID, Tool: name})
	env, err := m.Env(ctx, chatID, o)
	if err != nil {
		t.Fatal(err)
	}
	out, err := runner.Tool(name).Run(ctx, env, workspacetest.ArgsJSON(args))
	if env.Commit != nil {
		if cerr := env.Commit(); cerr != nil {
			t.Fatalf("commit: %v", cerr)
		}
	}
	return out.Text, err
}

func mustRun(t *testing.T, m *Manager, chatID string, o chat.ChatOptions, callID, name string, args any) string {
	t.Helper()
	out, err := runCall(t, m, chatID, o, callID, name, args)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

func folderOpts(dir string) chat.ChatOptions {
	return chat.ChatOptions{WorkspaceKind: string(KindFolder), WorkspaceDir: dir}
}

func overlayOpts(dir string) chat.ChatOptions {
	return chat.ChatOptions{WorkspaceKind: string(KindOverlay), WorkspaceDir: dir}
}
