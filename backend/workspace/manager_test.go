package workspace_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"airlock/backend/chat"
	. "airlock/backend/workspace"
)

type memScratch map[string][]File

func (m memScratch) LoadScratch(_ context.Context, id string) ([]File, error) { return m[id], nil }
func (m memScratch) SaveScratch(_ context.Context, id string, f []File) error {
	m[id] = f
	return nil
}

func TestManagerScratchSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	saved := memScratch{}
	opts := chat.DefaultChatOptions()
	m := NewManager(saved)
	env, err := m.Env(ctx, "c1", opts)
	if err != nil {
		t.Fatal(err)
	}
	var write, read = runner.Tool("write_file"), runner.Tool("read_file")
	if _, err := write.Run(ctx, env, json.RawMessage(`{"path":"notes/a.md","content":"kept"}`)); err != nil {
		t.Fatal(err)
	}
	if err := env.Commit(); err != nil {
		t.Fatal(err)
	}
	m.Close()

	m2 := NewManager(saved) // a new run of the app
	env2, err := m2.Env(ctx, "c1", opts)
	if err != nil {
		t.Fatal(err)
	}
	out, err := read.Run(ctx, env2, json.RawMessage(`{"path":"notes/a.md"}`))
	if err != nil || !strings.Contains(out.Text, "kept") {
		t.Fatalf("after restart: %q %v", out.Text, err)
	}
	other, _ := m2.Env(ctx, "c2", opts)
	if _, err := read.Run(ctx, other, json.RawMessage(`{"path":"notes/a.md"}`)); err == nil {
		t.Fatal("chats must not share a scratch workspace")
	}
	if err := m2.ResetScratch(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	env3, _ := m2.Env(ctx, "c1", opts)
	if _, err := afero.ReadFile(env3.FS, "notes/a.md"); err == nil {
		t.Fatal("reset must empty the scratch workspace")
	}
}

func TestManagerReopensWhenOptionsChange(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "disk.txt"), []byte("on disk"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := NewManager(memScratch{})
	defer m.Close()
	w, err := m.Get(ctx, "c", chat.DefaultChatOptions())
	if err != nil || w.Kind() != KindScratch {
		t.Fatalf("scratch: %v", err)
	}
	w, err = m.Get(ctx, "c", chat.ChatOptions{WorkspaceKind: "overlay", WorkspaceDir: dir})
	if err != nil || w.Kind() != KindOverlay {
		t.Fatalf("overlay: %v", err)
	}
	if b, err := afero.ReadFile(w.FS(), "disk.txt"); err != nil || string(b) != "on disk" {
		t.Fatalf("overlay reads the folder: %q %v", b, err)
	}
	if _, err := m.Get(ctx, "c", chat.ChatOptions{WorkspaceKind: "folder", WorkspaceDir: filepath.Join(dir, "missing")}); err == nil {
		t.Fatal("a missing folder must be an error")
	}
}
