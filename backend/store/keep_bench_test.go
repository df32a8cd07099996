package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/tools"
	"airlock/backend/workspace"
	"airlock/backend/workspace/workspacetest"
)

// What a checkpoint costs a write in a folder workspace, on a real SQLite
// file: write_file replacing a file of the same size, with the checkpoint
// (the old content saved first, the new one hashed after) and without.
// go test -run - -bench CheckpointedWrite ./backend/store/
func BenchmarkCheckpointedWrite(b *testing.B) {
	for _, size := range []int{64 << 10, 1 << 20, 4 << 20} {
		for _, kept := range []bool{false, true} {
			name := fmt.Sprintf("%dKB/checkpoint=%v", size>>10, kept)
			b.Run(name, func(b *testing.B) {
				ctx := context.Background()
				dir := b.TempDir()
				s, err := storeOpen(filepath.Join(b.TempDir(), "airlock.db"))
				if err != nil {
					b.Fatal(err)
				}
				defer s.Close()
				o := chat.ChatOptions{WorkspaceKind: "folder", WorkspaceDir: dir}
				c, _ := s.CreateChatWith(ctx, "bench", o)
				var m *workspace.Manager
				if kept {
					m = workspace.NewManager(s)
				} else {
					m = workspace.NewManager(scratchOnly{s}) // keeps no checkpoint
				}
				defer m.Close()
				write := runner.Tool("write_file")
				contents := []string{strings.Repeat("a", size-1) + "\n", strings.Repeat("b", size-1) + "\n"}
				workspacetest.WriteDisk(&testing.T{}, dir, "f.txt", contents[1])
				b.SetBytes(int64(size))
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					cctx := tools.WithCall(ctx, tools.CallInfo{ID: fmt.Sprint(i), Tool: "write_file"})
					env, err := m.Env(cctx, c.ID, o)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := write.Run(cctx, env, workspacetest.ArgsJSON(map[string]any{"path": "f.txt", "content": contents[i%2]})); err != nil {
						b.Fatal(err)
					}
					if env.Commit != nil {
						if err := env.Commit(); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}

// What saving an overlay's pending changes costs after a tool run: the whole
// layer is written again in one transaction.
func BenchmarkSaveOverlay(b *testing.B) {
	for _, files := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("%dfiles_x_8KB", files), func(b *testing.B) {
			ctx := context.Background()
			s, err := storeOpen(filepath.Join(b.TempDir(), "airlock.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			c, _ := s.CreateChat(ctx, "bench")
			st := workspace.OverlayState{Dir: "/x"}
			for i := range files {
				st.Files = append(st.Files, workspace.File{Path: fmt.Sprintf("f%04d.txt", i), Mode: 0o644, Content: []byte(strings.Repeat("x", 8<<10))})
				st.Seen = append(st.Seen, workspace.SeenPath{Path: fmt.Sprintf("f%04d.txt", i)})
			}
			b.SetBytes(int64(files * 8 << 10))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := s.SaveOverlay(ctx, c.ID, st); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// scratchOnly hides the store's checkpoints and overlays from a manager.
type scratchOnly struct{ workspace.ScratchStore }
