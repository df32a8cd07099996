package code

import (
	"context"
	"strings"
	"testing"

	"airlock/backend/workspace/workspacetest"
)

func TestRunBasics(t *testing.T) {
	cfg := testConfig(t, DefaultLimits())
	ctx := context.Background()
	for _, tc := range []struct{ tool, code, stdout, value string }{
		{"run_javascript", `console.log("hi", 1+1, {a: [1]}); writeFile("out/a.txt", "A\n"); listDir("out").map(e => e.name).join()`, "hi 2 {\"a\":[1]}\n", `"a.txt"`},
		{"run_python", "import os\nprint('hi', 1+1)\nos.makedirs('out', exist_ok=True)\nopen('out/a.txt','w').write('A\\n')\nos.listdir('out')", "hi 2\n", "['a.txt']"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			env, w := scratchEnv()
			rep := run(t, ctx, cfg, tc.tool, env, map[string]any{"code": tc.code})
			if rep.Error != "" || rep.Stdout != tc.stdout || rep.Value != tc.value {
				t.Fatalf("report %+v", rep)
			}
			if got := workspacetest.Get(t, w.FS(), "out/a.txt"); got != "A\n" {
				t.Fatalf("file %q", got)
			}
			f := rep.Files[len(rep.Files)-1] // the folder may come first
			if f.Path != "out/a.txt" || f.Change != "created" || !strings.Contains(f.Diff, "+A") {
				t.Fatalf("files %+v", rep.Files)
			}
			t.Logf("%s: start %d ms, run %d ms, memory %d", tc.tool, rep.StartMs, rep.DurationMs, rep.MemoryBytes)
		})
	}
}
