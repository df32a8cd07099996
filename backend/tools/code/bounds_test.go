package code

import (
	"context"
	"os"
	"runtime"
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

func TestMemoryBombFailsWithTheEnginesOutOfMemory(t *testing.T) {
	cfg := testConfig(t, small())
	for _, tool := range engines {
		t.Run(tool, func(t *testing.T) {
			env, _ := scratchEnv()
			run(t, context.Background(), cfg, tool, env, map[string]any{"code": "1"}) // warm: compiled code is not the bomb
			runtime.GC()
			_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) // reset the peak
			base := rssKiB(t, "VmRSS")
			code := pick(tool, "let a = []; while (true) a.push('x'.repeat(1 << 20) + a.length)",
				"a = []\nwhile True:\n    a.append(bytearray(1 << 20))")
			rep := run(t, context.Background(), cfg, tool, env, map[string]any{"code": code})
			peak := rssKiB(t, "VmHWM")
			if rep.Bound != BoundMemory || !strings.Contains(rep.Error, "memory bound (64 MB)") {
				t.Fatalf("bound %q error %q stderr %q", rep.Bound, rep.Error, rep.Stderr)
			}
			grew := (peak - base) >> 10
			t.Logf("%s: %s; RSS %d MiB before, peak %d MiB (+%d MiB)", tool, rep.Error, base>>10, peak>>10, grew)
			// The bound is 64 MiB; the app's own memory may not grow past it by much.
			if grew > 64+96 {
				t.Fatalf("RSS grew by %d MiB for a 64 MiB bound", grew)
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
