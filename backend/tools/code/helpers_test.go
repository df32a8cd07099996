package code

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"airlock/backend/tools"
	"airlock/backend/workspace"
)

// testPython finds python.wasm: AIRLOCK_PYTHON_WASM, else build/bin of the
// checkout (make python-wasm puts it there; make test-go runs that first).
func testPython(t testing.TB) PythonConfig {
	t.Helper()
	p := os.Getenv("AIRLOCK_PYTHON_WASM")
	if p == "" {
		dir, _ := os.Getwd()
		for ; dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				p = filepath.Join(dir, "build", "bin", PythonWasmName)
				break
			}
		}
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("python.wasm is missing (%v): run `make python-wasm` in the checkout", err)
	}
	return PythonConfig{Wasm: p, CacheDir: filepath.Join(os.TempDir(), "airlock-test-wazero")}
}

func testConfig(t testing.TB, l Limits) Config {
	return Config{Limits: func(context.Context) Limits { return l }, Python: testPython(t)}
}

func toolNamed(t testing.TB, cfg Config, name string) tools.Tool {
	for _, tl := range Tools(cfg) {
		if tl.Name == name {
			return tl
		}
	}
	t.Fatalf("no tool %s", name)
	return tools.Tool{}
}

// run runs code with a tool on env and returns the report.
func run(t testing.TB, ctx context.Context, cfg Config, tool string, env tools.Env, argsJSON map[string]any) Report {
	t.Helper()
	raw, _ := json.Marshal(argsJSON)
	out, err := toolNamed(t, cfg, tool).Run(ctx, env, raw)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var rep Report
	if err := json.Unmarshal(out.Structured, &rep); err != nil {
		t.Fatalf("report: %v (%s)", err, out.Text)
	}
	if out.IsError != (rep.Error != "") {
		t.Fatalf("IsError %v but report error %q", out.IsError, rep.Error)
	}
	return rep
}

func scratchEnv() (tools.Env, *workspace.Workspace) {
	w := workspace.NewScratch()
	return tools.Env{FS: w.FS()}, w
}
