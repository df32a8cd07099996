package code

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"airlock/backend/tools"
)

// runError runs a tool and returns what went wrong, in words.
func runError(t *testing.T, tool tools.Tool, env tools.Env, raw json.RawMessage) string {
	t.Helper()
	out, err := tool.Run(context.Background(), env, raw)
	if err != nil {
		return err.Error()
	}
	var rep Report
	_ = json.Unmarshal(out.Structured, &rep)
	return rep.Error
}

// python.wasm is checked against its pinned SHA-256, a missing one says how
// to get it, and compiled code lands in the cache folder on disk.
func TestPythonRuntimeIsPinnedAndCached(t *testing.T) {
	env, _ := scratchEnv()
	raw := json.RawMessage(`{"code":"print(1)"}`)

	bad := filepath.Join(t.TempDir(), PythonWasmName)
	if err := os.WriteFile(bad, []byte("\x00asm not python"), 0o644); err != nil {
		t.Fatal(err)
	}
	if msg := runError(t, runPython(Config{Python: PythonConfig{Wasm: bad}}), env, raw); !strings.Contains(msg, "SHA-256 differs") {
		t.Fatalf("a wrong python.wasm: %q", msg)
	}
	missing := filepath.Join(t.TempDir(), PythonWasmName)
	if msg := runError(t, runPython(Config{Python: PythonConfig{Wasm: missing}}), env, raw); !strings.Contains(msg, "make python-wasm") {
		t.Fatalf("missing runtime: %q", msg)
	}

	pc := testPython(t)
	pc.CacheDir = t.TempDir()
	rep := run(t, context.Background(), Config{Python: pc}, "run_python", env, map[string]any{"code": "print(1)"})
	if rep.Error != "" || rep.Stdout != "1\n" {
		t.Fatalf("%+v", rep)
	}
	if entries, _ := os.ReadDir(pc.CacheDir); len(entries) == 0 {
		t.Fatal("nothing was cached on disk")
	}
}
