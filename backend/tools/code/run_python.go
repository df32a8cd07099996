package code

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental/sysfs"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"

	"airlock/backend/tools"
	"airlock/backend/workspace"
)

var runPythonDescription = "Run a Python 3.12 program (CPython for WASI, standard library only) and get its printed output " +
	"and the value of its last expression. Use it to compute, analyse data or process files in the workspace: the " +
	"working folder is the workspace root, so open(\"notes.txt\") and os.listdir(\".\") just work. There is no " +
	"network, no subprocess, no threads and no pip packages. The user reads the code and approves it before it runs; " +
	"runs are bounded in time, memory, output and writes."

func runPython(cfg Config) tools.Tool {
	return codeTool(cfg, "run_python", "python", pythonVersion, runPythonDescription,
		`import csv; rows = list(csv.reader(open("data.csv"))); print(len(rows)); rows[0]`,
		func(ctx context.Context, rf *runFS, a args, b Bounds, rep *Report) error {
			return runPy(ctx, cfg.Python, rf, a, b, rep)
		})
}

// pyWrapper runs the code read from stdin as __main__ and, when its last
// statement is an expression, writes marker + repr(value) at the end of
// stdout. Tracebacks show the code's own lines, not the wrapper's.
const pyWrapper = `import sys, ast, linecache
src = sys.stdin.read()
linecache.cache["<code>"] = (len(src), None, src.splitlines(True), "<code>")
g = {"__name__": "__main__", "__builtins__": __builtins__}
try:
    tree = ast.parse(src, "<code>", "exec")
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, "<code>", "exec"), g)
    v = eval(compile(last, "<code>", "eval"), g) if last is not None else None
except SystemExit:
    raise
except BaseException as e:
    import traceback
    tb = e.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != "<code>":
        tb = tb.tb_next
    traceback.print_exception(type(e), e, tb)
    sys.exit(1)
if v is not None:
    sys.stdout.flush()
    r = repr(v)
    sys.stdout.write(MARKER + (r if len(r) <= 4096 else r[:4096] + "..."))
    sys.stdout.flush()
`

// runPy runs one program in a fresh WASI instance of CPython.
func runPy(ctx context.Context, pc PythonConfig, rf *runFS, a args, b Bounds, rep *Report) error {
	started := time.Now()
	wasm, err := pc.readWasm()
	if err != nil {
		return err
	}
	rtc := wazero.NewRuntimeConfig().
		WithCompilationCache(pc.compilationCache()).
		WithMemoryLimitPages(uint32(b.MemoryBytes / 65536)).
		// The bound reserved at once (untouched pages cost nothing): growing
		// copy by copy would leave the old copies for the GC, several times
		// the bound at the peak.
		WithMemoryCapacityFromMax(true).
		WithCloseOnContextDone(true).
		// Without this a stopped run waits seconds while wazero reads
		// CPython's DWARF for a stack trace nobody shows.
		WithDebugInfoEnabled(false)
	rt := wazero.NewRuntimeWithConfig(ctx, rtc)
	defer func() {
		_ = rt.Close(context.Background()) // also drops the compiled code from memory
		// The module, its compiled code and the guest's memory (100 MB and
		// more) go back to the system now, not at some later GC: an idle
		// Airlock returns to its size after a run.
		debug.FreeOSMemory()
	}()
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		return startErr(ctx, err)
	}
	compiled, err := rt.CompileModule(ctx, wasm)
	wasm = nil
	if err != nil {
		return startErr(ctx, err)
	}
	nonce := make([]byte, 12)
	_, _ = rand.Read(nonce)
	marker := "\x00airlock-value-" + hex.EncodeToString(nonce) + ":"
	stdout, stderr := newCapped(b.OutputBytes), newCapped(b.OutputBytes)
	fsc := wazero.NewFSConfig().(sysfs.FSConfig).WithSysFSMount(wasiFS{r: rf}, "/")
	mc := wazero.NewModuleConfig().WithName("").
		WithArgs("python", "-B", "-c", "MARKER = "+pyQuote(marker)+"\n"+pyWrapper).
		WithStdin(strings.NewReader(a.Code)).WithStdout(stdout).WithStderr(stderr).
		WithFSConfig(fsc).WithSysWalltime().WithSysNanotime().WithRandSource(rand.Reader).
		WithStartFunctions() // started below, so the memory can be read after
	mod, err := rt.InstantiateModule(ctx, compiled, mc)
	if err != nil {
		return startErr(ctx, err)
	}
	rep.StartMs = since(started)
	ctx, cancel := wallTime(ctx, b)
	defer cancel()
	began := time.Now()
	_, err = mod.ExportedFunction("_start").Call(ctx)
	rep.DurationMs = since(began)
	if mem := mod.Memory(); mem != nil {
		rep.MemoryBytes = int64(mem.Size())
	}
	if v, ok := stdout.takeMarked(marker); ok {
		rep.Value = v
	}
	rep.Stdout, rep.StdoutCut = stdout.text()
	rep.Stderr, rep.StderrCut = stderr.text()
	if rep.StdoutCut > 0 || rep.StderrCut > 0 {
		rep.Bound = BoundOutput
	}
	var exit *sys.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &exit) && exit.ExitCode() == 0:
		return nil
	case errors.As(err, &exit) && ctx.Err() == nil:
		rep.ExitCode = int(exit.ExitCode())
		last := lastLine(rep.Stderr)
		switch {
		case strings.HasPrefix(last, "MemoryError"):
			rep.Bound, rep.Error = BoundMemory, fmt.Sprintf("stopped: the run hit the memory bound (%s): %s", workspace.HumanSize(b.MemoryBytes), last)
		case last != "":
			rep.Error = last
		default:
			rep.Error = fmt.Sprintf("the program exited with status %d", rep.ExitCode)
		}
		return err
	case ctx.Err() != nil:
		rep.ExitCode = 1
		return context.Cause(ctx)
	}
	// A trap: the guest broke a WebAssembly rule (out of bounds, stack).
	rep.ExitCode = 1
	msg := err.Error()
	switch {
	case strings.Contains(msg, "stack overflow") || strings.Contains(msg, "call stack exhausted"):
		rep.Bound, rep.Error = BoundStack, "stopped: the call stack overflowed (too deep a recursion)"
	case strings.Contains(msg, "out of bounds memory") || strings.Contains(msg, "memory"):
		rep.Bound, rep.Error = BoundMemory, fmt.Sprintf("stopped: the run hit the memory bound (%s): %s", workspace.HumanSize(b.MemoryBytes), firstLine(msg))
	default:
		rep.Error = "the Python runtime stopped: " + firstLine(msg)
	}
	return err
}

func startErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return fmt.Errorf("could not start Python: %w", err)
}

// pyQuote writes s as a Python string literal (ASCII, escapes only).
func pyQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r > 0x7e:
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
