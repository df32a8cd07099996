package code

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"airlock/backend/chat"
	"airlock/backend/store"
	"airlock/backend/tools"
	"airlock/backend/workspace"
	"airlock/backend/workspace/workspacetest"
)

func TestHostPathsFail(t *testing.T) {
	cfg := testConfig(t, small())
	parent := t.TempDir()
	ws := filepath.Join(parent, "ws")
	workspacetest.WriteDisk(t, ws, "in.txt", "inside")
	workspacetest.WriteDisk(t, parent, "secret.txt", "TOP-SECRET")
	w, err := workspace.OpenFolder(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	env := tools.Env{FS: w.FS()}
	secret := filepath.Join(parent, "secret.txt")
	for _, tool := range engines {
		for _, p := range []string{"/etc/passwd", "../secret.txt", "../../etc/passwd", secret, "ws/../../secret.txt"} {
			code := pick(tool, "readFile("+quoteJS(p)+")", "open("+quoteJS(p)+").read()")
			rep := run(t, context.Background(), cfg, tool, env, map[string]any{"code": code})
			if rep.Error == "" || strings.Contains(rep.Value+rep.Stdout, "root:") || strings.Contains(rep.Value+rep.Stdout, "TOP-SECRET") {
				t.Fatalf("%s read %s: %+v", tool, p, rep)
			}
		}
		// Listing "/" and ".." shows the workspace, nothing above it.
		rep := run(t, context.Background(), cfg, tool, env, map[string]any{"code": pick(tool,
			`JSON.stringify([listDir("/").map(e => e.name), listDir(".").map(e => e.name)])`,
			`import os; [os.listdir("/"), os.listdir("."), os.getcwd()]`)})
		if !strings.Contains(rep.Value, "in.txt") || strings.Contains(rep.Value, "secret") || strings.Contains(rep.Value, "etc") {
			t.Fatalf("%s listing: %+v", tool, rep)
		}
		// Writing outside fails too, and nothing appears above the workspace.
		rep = run(t, context.Background(), cfg, tool, env, map[string]any{"code": pick(tool,
			`writeFile("../escaped.txt", "x")`, `open("../escaped.txt", "w").write("x")`)})
		if rep.Error == "" {
			t.Fatalf("%s wrote outside: %+v", tool, rep)
		}
		if _, err := os.Stat(filepath.Join(parent, "escaped.txt")); err == nil {
			t.Fatalf("%s: a file appeared outside the workspace", tool)
		}
	}
}

func quoteJS(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }

func TestReadOnlyRunCannotWrite(t *testing.T) {
	cfg := testConfig(t, small())
	for _, tool := range engines {
		env, w := scratchEnv()
		workspacetest.Put(t, w.FS(), "keep.txt", "old")
		for _, code := range []string{
			pick(tool, `writeFile("new.txt", "x")`, `open("new.txt", "w").write("x")`),
			pick(tool, `appendFile("keep.txt", "x")`, `open("keep.txt", "a").write("x")`),
			pick(tool, `remove("keep.txt")`, `import os; os.remove("keep.txt")`),
			pick(tool, `mkdir("d")`, `import os; os.mkdir("d")`),
			pick(tool, `rename("keep.txt", "k2.txt")`, `import os; os.rename("keep.txt", "k2.txt")`),
		} {
			rep := run(t, context.Background(), cfg, tool, env, map[string]any{"code": code, "read_only": true})
			if rep.Error == "" || rep.ReadOnlyRefused == 0 || len(rep.Files) != 0 || !rep.ReadOnly || strings.Contains(rep.Error, "TypeError") {
				t.Fatalf("%s %q: %+v", tool, code, rep)
			}
		}
		snap, _ := w.Snapshot()
		if len(snap) != 1 || workspacetest.Get(t, w.FS(), "keep.txt") != "old" {
			t.Fatalf("%s: the workspace changed: %+v", tool, snap)
		}
		// Reading still works.
		if rep := run(t, context.Background(), cfg, tool, env, map[string]any{"code": pick(tool, `readFile("keep.txt")`, `open("keep.txt").read()`), "read_only": true}); rep.Error != "" {
			t.Fatalf("%s read: %+v", tool, rep)
		}
	}
}

func TestWriteQuotaHolds(t *testing.T) {
	cfg := testConfig(t, small()) // 3 files, 1 MiB
	for _, tool := range engines {
		env, w := scratchEnv()
		rep := run(t, context.Background(), cfg, tool, env, map[string]any{"code": pick(tool,
			`for (let i = 0; i < 10; i++) writeFile("f" + i + ".txt", "x")`,
			"for i in range(10):\n    open(f'f{i}.txt', 'w').write('x')")})
		if rep.Bound != BoundFiles || !strings.Contains(rep.Error, "at most 3 files") {
			t.Fatalf("%s files: %+v", tool, rep)
		}
		if snap, _ := w.Snapshot(); len(snap) != 3 {
			t.Fatalf("%s: %d files written, bound 3", tool, len(snap))
		}
		env, w = scratchEnv()
		rep = run(t, context.Background(), cfg, tool, env, map[string]any{"code": pick(tool,
			`const s = "y".repeat(64 << 10); for (let i = 0; i < 40; i++) appendFile("big.txt", s)`,
			"s = 'y' * (64 << 10)\nwith open('big.txt', 'w') as f:\n    for i in range(40):\n        f.write(s)\n        f.flush()")})
		if rep.Bound != BoundWrite || !strings.Contains(rep.Error, "at most 1 MB") {
			t.Fatalf("%s bytes: %+v", tool, rep)
		}
		if fi, err := w.FS().Stat("/big.txt"); err != nil || fi.Size() > 1<<20 {
			t.Fatalf("%s: big.txt %v %v", tool, fi, err)
		}
	}
}

func TestNoNetworkNoEnvironment(t *testing.T) {
	cfg := testConfig(t, small())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			accepted <- struct{}{}
			c.Close()
		}
	}()
	addr := ln.Addr().(*net.TCPAddr)
	t.Setenv("AIRLOCK_SECRET_TEST", "leak-me")
	env, _ := scratchEnv()
	js := run(t, context.Background(), cfg, "run_javascript", env, map[string]any{"code": `[typeof fetch, typeof XMLHttpRequest, typeof WebSocket, typeof require, typeof process, typeof setTimeout, typeof std, typeof os].join()`})
	if js.Value != `"undefined,undefined,undefined,undefined,undefined,undefined,undefined,undefined"` {
		t.Fatalf("javascript globals: %+v", js)
	}
	py := run(t, context.Background(), cfg, "run_python", env, map[string]any{"code": `import os
out = [dict(os.environ)]
try:
    import socket
    s = socket.socket()
    s.settimeout(2)
    s.connect(("127.0.0.1", ` + itoa(addr.Port) + `))
    out.append("connected")
except Exception as e:
    out.append(type(e).__name__)
try:
    import urllib.request
    urllib.request.urlopen("http://127.0.0.1:` + itoa(addr.Port) + `/", timeout=2)
    out.append("fetched")
except Exception as e:
    out.append(type(e).__name__)
try:
    import subprocess
    subprocess.run(["ls"])
    out.append("spawned")
except Exception as e:
    out.append(type(e).__name__)
out`})
	if py.Error != "" || !strings.HasPrefix(py.Value, "[{}, ") || strings.Contains(py.Value, "connected") || strings.Contains(py.Value, "fetched") || strings.Contains(py.Value, "spawned") {
		t.Fatalf("python: %+v", py)
	}
	t.Logf("python: %s", py.Value)
	select {
	case <-accepted:
		t.Fatal("the code reached a socket on the host")
	case <-time.After(200 * time.Millisecond):
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// The code's writes take the file tools' road in every workspace kind:
// scratch (saved by Commit), folder (a checkpoint Undo restores), overlay
// (a pending change, the disk untouched).
func TestWritesLandOnlyInTheChatsWorkspace(t *testing.T) {
	cfg := testConfig(t, small())
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "airlock.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m := workspace.NewManager(st)
	defer m.Close()
	for _, tool := range engines {
		for _, kind := range []string{"scratch", "folder", "overlay"} {
			t.Run(tool+"/"+kind, func(t *testing.T) {
				dir := t.TempDir()
				workspacetest.WriteDisk(t, dir, "a.txt", "before\n")
				c, err := st.CreateChatWith(ctx, "code", chat.ChatOptions{WorkspaceKind: kind, WorkspaceDir: dir})
				if err != nil {
					t.Fatal(err)
				}
				callCtx := tools.WithCall(ctx, tools.CallInfo{ID: "call-" + tool + kind, Tool: tool})
				env, err := m.Env(callCtx, c.ID, c.ChatOptions)
				if err != nil {
					t.Fatal(err)
				}
				if kind == "scratch" {
					workspacetest.Put(t, env.FS, "a.txt", "before\n")
				}
				rep := run(t, callCtx, cfg, tool, env, map[string]any{"code": pick(tool,
					`writeFile("a.txt", "after\n"); writeFile("sub/b.txt", "new\n")`,
					"import os\nopen('a.txt', 'w').write('after\\n')\nos.makedirs('sub', exist_ok=True)\nopen('sub/b.txt', 'w').write('new\\n')")})
				if rep.Error != "" {
					t.Fatalf("%+v", rep)
				}
				if err := env.Commit(); err != nil {
					t.Fatal(err)
				}
				var mod *FileChange
				for i := range rep.Files {
					if rep.Files[i].Path == "a.txt" {
						mod = &rep.Files[i]
					}
				}
				if mod == nil || mod.Change != "modified" || !strings.Contains(mod.Diff, "-before") || !strings.Contains(mod.Diff, "+after") {
					t.Fatalf("files %+v", rep.Files)
				}
				disk, _ := workspacetest.ReadDisk(t, dir, "a.txt")
				switch kind {
				case "scratch":
					files, _ := st.LoadScratch(ctx, c.ID)
					if len(files) < 2 || disk != "before\n" {
						t.Fatalf("scratch saved %d files; disk %q", len(files), disk)
					}
				case "folder":
					cps, err := st.ListCheckpoints(ctx, c.ID, 10, 10)
					if err != nil || len(cps) != 1 || disk != "after\n" {
						t.Fatalf("checkpoints %+v %v; disk %q", cps, err, disk)
					}
					if _, err := m.Undo(ctx, cps[0].ID); err != nil {
						t.Fatal(err)
					}
					if disk, _ := workspacetest.ReadDisk(t, dir, "a.txt"); disk != "before\n" {
						t.Fatalf("after undo: %q", disk)
					}
					if _, ok := workspacetest.ReadDisk(t, dir, "sub/b.txt"); ok {
						t.Fatal("undo left sub/b.txt")
					}
				case "overlay":
					w, _ := m.Get(ctx, c.ID, c.ChatOptions)
					changes, err := w.Changes()
					if err != nil || len(changes) < 2 || disk != "before\n" {
						t.Fatalf("overlay changes %+v %v; disk %q", changes, err, disk)
					}
				}
			})
		}
	}
}
