package code

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
)

// small are bounds small enough for tests to hit quickly.
func small() Limits {
	return Limits{TimeoutSeconds: 30, MemoryMiB: 64, OutputKiB: 4, MaxFiles: 3, MaxWriteMiB: 1}
}

var engines = []string{"run_javascript", "run_python"}

func pick(tool, js, py string) string {
	if tool == "run_javascript" {
		return js
	}
	return py
}

func TestInfiniteLoopStopsAtTheWallTime(t *testing.T) {
	cfg := testConfig(t, small())
	for _, tool := range engines {
		t.Run(tool, func(t *testing.T) {
			env, _ := scratchEnv()
			rep := run(t, context.Background(), cfg, tool, env, map[string]any{"code": pick(tool, "while (true) {}", "while True:\n    pass"), "timeout": 2})
			// Bound 2 s; slack for a loaded machine (CPython checks the deadline between instructions).
			if rep.Bound != BoundTime || !strings.Contains(rep.Error, "wall-time bound (2s)") || rep.DurationMs > 2000+4000 {
				t.Fatalf("bound %q error %q after %d ms", rep.Bound, rep.Error, rep.DurationMs)
			}
			t.Logf("stopped after %d ms", rep.DurationMs)
		})
	}
}

func TestTimeoutArgumentShortensTheBound(t *testing.T) {
	cfg := testConfig(t, DefaultLimits())
	env, _ := scratchEnv()
	rep := run(t, context.Background(), cfg, "run_javascript", env, map[string]any{"code": "for(;;){}", "timeout": 1})
	if rep.Bound != BoundTime || rep.Bounds.TimeoutMs != 1000 {
		t.Fatalf("%+v", rep)
	}
	raw := []byte(`{"code":"1","timeout":61}`)
	if _, err := toolNamed(t, cfg, "run_javascript").Run(context.Background(), env, raw); err == nil || !strings.Contains(err.Error(), "from 1 to 60") {
		t.Fatalf("timeout 61 accepted: %v", err)
	}
}

// rssKiB reads a line of /proc/self/status (Linux).
func rssKiB(t *testing.T, key string) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc here")
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, key+":") {
			n, _ := strconv.ParseInt(strings.Fields(line)[1], 10, 64)
			return n
		}
	}
	t.Fatalf("no %s", key)
	return 0
}

// peakGrowth is how far the process's resident memory rose above where it
// was while f ran (MiB; Linux: the peak is reset through clear_refs).
func peakGrowth(t *testing.T, f func()) int64 {
	debug.FreeOSMemory()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Skipf("cannot reset the peak: %v", err)
	}
	base := rssKiB(t, "VmRSS")
	f()
	return (rssKiB(t, "VmHWM") - base) >> 10
}

// A memory bomb fails with the engine's own out-of-memory error, and the
// app's memory stays bounded: the bomb costs the process at most the
// bound (plus a little) more than a run that allocates nothing.
func TestMemoryBombFailsWithTheEnginesOutOfMemory(t *testing.T) {
	cfg := testConfig(t, small())
	for _, tool := range engines {
		t.Run(tool, func(t *testing.T) {
			env, _ := scratchEnv()
			run(t, context.Background(), cfg, tool, env, map[string]any{"code": "1"}) // compiled once, cached
			idle := peakGrowth(t, func() { run(t, context.Background(), cfg, tool, env, map[string]any{"code": "1"}) })
			var rep Report
			bomb := peakGrowth(t, func() {
				rep = run(t, context.Background(), cfg, tool, env, map[string]any{"code": pick(tool,
					"let a = []; while (true) a.push('x'.repeat(1 << 20) + a.length)",
					"a = []\nwhile True:\n    a.append(bytearray(1 << 20))")})
			})
			if rep.Bound != BoundMemory || !strings.Contains(rep.Error, "memory bound (64 MB)") {
				t.Fatalf("bound %q error %q stderr %q", rep.Bound, rep.Error, rep.Stderr)
			}
			t.Logf("%s: %s; peak RSS +%d MiB for a run of nothing, +%d MiB for the bomb (bound 64 MiB)", tool, rep.Error, idle, bomb)
			if bomb > idle+64+48 {
				t.Fatalf("the bomb raised RSS by %d MiB, a run of nothing by %d MiB: more than the 64 MiB bound apart", bomb, idle)
			}
		})
	}
}

func TestRecursionBombErrorsNeverCrashes(t *testing.T) {
	cfg := testConfig(t, small())
	for _, tool := range engines {
		for i, code := range []string{
			pick(tool, "function f(n) { return f(n + 1) + 1 } f(0)", "def f(n):\n    return f(n + 1) + 1\nf(0)"),
			pick(tool, "const f = (n) => [f(n + 1)]; f(0)", "import sys\nsys.setrecursionlimit(10**7)\ndef f(n):\n    return f(n + 1) + 1\nf(0)"),
		} {
			t.Run(tool+strconv.Itoa(i), func(t *testing.T) {
				env, _ := scratchEnv()
				rep := run(t, context.Background(), cfg, tool, env, map[string]any{"code": code, "timeout": 5})
				if rep.Error == "" || rep.ExitCode == 0 {
					t.Fatalf("no error: %+v", rep)
				}
				t.Logf("%s: bound %q: %s", tool, rep.Bound, firstLine(rep.Error))
				// The engine still works afterwards.
				if after := run(t, context.Background(), cfg, tool, env, map[string]any{"code": "6 * 7"}); after.Value != "42" {
					t.Fatalf("after: %+v", after)
				}
			})
		}
	}
}

func TestOutputFloodIsCutAtTheBound(t *testing.T) {
	cfg := testConfig(t, small())
	for _, tool := range engines {
		t.Run(tool, func(t *testing.T) {
			env, _ := scratchEnv()
			code := pick(tool, "for (let i = 0; i < 100000; i++) console.log('y'.repeat(99)); 'done'",
				"for i in range(100000):\n    print('y' * 99)\n'done'")
			rep := run(t, context.Background(), cfg, tool, env, map[string]any{"code": code})
			if len(rep.Stdout) != 4<<10 || rep.StdoutCut != 100000*100-4<<10 || rep.Bound != BoundOutput || rep.Error != "" {
				t.Fatalf("stdout %d bytes, cut %d, bound %q, error %q", len(rep.Stdout), rep.StdoutCut, rep.Bound, rep.Error)
			}
			if rep.Value != pick(tool, `"done"`, "'done'") {
				t.Fatalf("value %q", rep.Value)
			}
			if text := rep.text(); !strings.Contains(text, "stdout cut at the output bound") {
				t.Fatalf("no note: %s", text[len(text)-300:])
			}
		})
	}
}

func TestRunAfterACancelledRunWorksAndNoGoroutineLeaks(t *testing.T) {
	cfg := testConfig(t, small())
	for _, tool := range engines {
		t.Run(tool, func(t *testing.T) {
			env, _ := scratchEnv()
			run(t, context.Background(), cfg, tool, env, map[string]any{"code": "1"})
			before := runtime.NumGoroutine()
			for i := 0; i < 3; i++ {
				ctx, cancel := context.WithCancel(context.Background())
				go func() { time.Sleep(300 * time.Millisecond); cancel() }()
				rep := run(t, ctx, cfg, tool, env, map[string]any{"code": pick(tool, "while(true){}", "while True: pass")})
				if !rep.Cancelled {
					t.Fatalf("not cancelled: %+v", rep)
				}
				if after := run(t, context.Background(), cfg, tool, env, map[string]any{"code": "2 + 2"}); after.Value != "4" {
					t.Fatalf("after a cancelled run: %+v", after)
				}
			}
			deadline := time.Now().Add(5 * time.Second)
			for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			if n := runtime.NumGoroutine(); n > before {
				t.Fatalf("%d goroutines before, %d after", before, n)
			}
		})
	}
}
