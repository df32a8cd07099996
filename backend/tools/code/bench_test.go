package code

import (
	"context"
	"encoding/json"
	"testing"
)

// Start-up and speed of each engine (make bench; figures in the issue note).
// "first" compiles python.wasm into an empty cache each time; "cached" is
// every later run.

func benchRun(b *testing.B, cfg Config, tool, code string) {
	env, _ := scratchEnv()
	raw, _ := json.Marshal(map[string]any{"code": code})
	t := toolNamed(b, cfg, tool)
	b.ResetTimer()
	var start, ran int64
	for i := 0; i < b.N; i++ {
		out, err := t.Run(context.Background(), env, raw)
		if err != nil || out.IsError {
			b.Fatalf("%v %s", err, out.Text)
		}
		var rep Report
		_ = json.Unmarshal(out.Structured, &rep)
		start, ran = start+rep.StartMs, ran+rep.DurationMs
	}
	// The engine's start (compiled code loaded, VM ready) and the run itself.
	b.ReportMetric(float64(start)/float64(b.N), "start-ms/op")
	b.ReportMetric(float64(ran)/float64(b.N), "run-ms/op")
}

func BenchmarkJavaScriptStart(b *testing.B) {
	benchRun(b, testConfig(b, DefaultLimits()), "run_javascript", "1")
}

func BenchmarkPythonFirstStart(b *testing.B) {
	cfg := testConfig(b, DefaultLimits())
	env, _ := scratchEnv()
	t := runPython(cfg)
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		c := cfg
		c.Python.CacheDir = b.TempDir()
		t = runPython(c)
		b.StartTimer()
		if out, err := t.Run(context.Background(), env, json.RawMessage(`{"code":"1"}`)); err != nil || out.IsError {
			b.Fatal(err, out.Text)
		}
	}
}

func BenchmarkPythonCachedStart(b *testing.B) {
	cfg := testConfig(b, DefaultLimits())
	benchRun(b, cfg, "run_python", "1") // the first iteration warms the cache
}

const fibJS = "function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) } fib(27)"
const fibPy = "def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\nfib(27)"

func BenchmarkFib27JavaScript(b *testing.B) {
	benchRun(b, testConfig(b, Limits{TimeoutSeconds: 60, MemoryMiB: 128, OutputKiB: 16, MaxFiles: 1, MaxWriteMiB: 1}), "run_javascript", fibJS)
}

func BenchmarkFib27Python(b *testing.B) {
	benchRun(b, testConfig(b, Limits{TimeoutSeconds: 60, MemoryMiB: 128, OutputKiB: 16, MaxFiles: 1, MaxWriteMiB: 1}), "run_python", fibPy)
}
