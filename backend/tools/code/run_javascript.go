package code

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/afero"
	"modernc.org/quickjs"

	"airlock/backend/tools"
	"airlock/backend/workspace"
)

const jsEngine = "QuickJS " // + quickjs.Version()

var runJavaScriptDescription = "Run a JavaScript program (ES2023, QuickJS) and get its console output and the value of its " +
	"last expression. Use it to compute, transform data or process files in the workspace. There is no network, no " +
	"timers, no modules and no Node.js API. Files: readFile(path), writeFile(path, text), appendFile(path, text), " +
	"listDir(path) → [{name, type, size}], stat(path) → {type, size, mtime} or null, exists(path), mkdir(path), " +
	"remove(path), rename(from, to); paths are relative to the workspace root. Output: console.log / console.error. " +
	"The user reads the code and approves it before it runs; runs are bounded in time, memory, output and writes."

func runJavaScript(cfg Config) tools.Tool {
	return codeTool(cfg, "run_javascript", "javascript", jsEngine+quickjs.Version(), runJavaScriptDescription,
		`const rows = readFile("data.csv").split("\n"); console.log(rows.length); rows[0]`, runJS)
}

// runJS runs one program in a new VM.
func runJS(ctx context.Context, rf *runFS, a args, b Bounds, rep *Report) error {
	rep.Engine = jsEngine + quickjs.Version()
	started := time.Now()
	vm, err := quickjs.NewVM()
	if err != nil {
		return fmt.Errorf("could not start QuickJS: %w", err)
	}
	defer vm.Close()
	vm.SetMemoryLimit(uintptr(b.MemoryBytes))
	// A backstop: the run's context interrupts the VM at the bound.
	if err := vm.SetEvalTimeout(time.Duration(b.TimeoutMs)*time.Millisecond + time.Second); err != nil {
		return err
	}
	stdout, stderr := newCapped(b.OutputBytes), newCapped(b.OutputBytes)
	if err := registerJS(ctx, vm, rf, stdout, stderr); err != nil {
		return fmt.Errorf("could not start QuickJS: %w", err)
	}
	rep.StartMs = time.Since(started).Milliseconds()
	ctx, cancel := wallTime(ctx, b)
	defer cancel()
	began := time.Now()
	defer func() { rep.DurationMs = time.Since(began).Milliseconds() }()

	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			vm.Interrupt()
		case <-done:
		}
	}()
	v, err := vm.Eval(a.Code, quickjs.EvalGlobal)
	if err == nil {
		_, err = vm.ExecutePendingJobs() // promise reactions of async code
	}
	rep.Stdout, rep.StdoutCut = stdout.text()
	rep.Stderr, rep.StderrCut = stderr.text()
	if rep.StdoutCut > 0 || rep.StderrCut > 0 {
		rep.Bound = BoundOutput
	}
	if err != nil && (ctx.Err() != nil || strings.Contains(err.Error(), "interrupted")) {
		<-ctx.Done() // the backstop fired a moment before the context
		rep.ExitCode = 1
		return context.Cause(ctx)
	}
	if err != nil {
		msg := err.Error()
		switch {
		case strings.Contains(msg, "out of memory"):
			rep.Bound, rep.Error = BoundMemory, fmt.Sprintf("stopped: the run hit the memory bound (%s): %s", workspace.HumanSize(b.MemoryBytes), msg)
		case strings.Contains(msg, "stack overflow"):
			rep.Bound, rep.Error = BoundStack, "stopped: the call stack overflowed (too deep a recursion): "+msg
		default:
			rep.Error = msg
		}
		rep.ExitCode = 1
		return err
	}
	rep.Value = jsValue(v)
	return nil
}

// jsValue shows a result the way a console would: nothing for undefined,
// JSON for the rest.
func jsValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case quickjs.Undefined:
		return ""
	case quickjs.Unsupported:
		return "(a value that cannot be shown, such as a function)"
	case string:
		b, _ := json.Marshal(x)
		return string(b)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// jsPrelude is the console and the fs object, over the host functions.
const jsPrelude = `(() => {
  const show = (v) => {
    if (typeof v === 'string') return v;
    if (v instanceof Error) return v.stack ? String(v) + '\n' + v.stack : String(v);
    if (typeof v === 'function' || typeof v === 'symbol' || v === undefined) return String(v);
    try {
      const s = JSON.stringify(v, (k, x) => typeof x === 'bigint' ? x.toString() + 'n' : x);
      return s === undefined ? String(v) : s;
    } catch (e) { return String(v); }
  };
  const line = (a) => a.map(show).join(' ') + '\n';
  const out = __airlock_out, err = __airlock_err;
  delete globalThis.__airlock_out; delete globalThis.__airlock_err;
  globalThis.console = {
    log: (...a) => out(line(a)), info: (...a) => out(line(a)), debug: (...a) => out(line(a)),
    warn: (...a) => err(line(a)), error: (...a) => err(line(a)),
  };
  globalThis.print = globalThis.console.log;
  // A refused file operation is an Error (the engine throws host errors as TypeError).
  const names = ['readFile', 'writeFile', 'appendFile', 'listDir', 'stat', 'exists', 'mkdir', 'remove', 'rename'];
  for (const n of names) {
    const f = globalThis[n];
    globalThis[n] = function (...a) {
      try { return f(...a); } catch (e) { throw new Error(e && e.message !== undefined ? e.message : String(e)); }
    };
  }
  globalThis.fs = Object.fromEntries(names.map((n) => [n, globalThis[n]]));
})();`

// registerJS gives the VM its console and the workspace functions.
func registerJS(ctx context.Context, vm *quickjs.VM, rf *runFS, stdout, stderr *capped) error {
	str := func(args []any, i int, what string) (string, error) {
		if i >= len(args) {
			return "", fmt.Errorf("missing argument: %s", what)
		}
		s, ok := args[i].(string)
		if !ok {
			return "", fmt.Errorf("%s must be a string", what)
		}
		return s, nil
	}
	alive := func() error {
		if ctx.Err() != nil {
			return errors.New("the run was stopped")
		}
		return nil
	}
	write := func(flag int) quickjs.HostFunc {
		return func(args []any) (any, error) {
			p, err := str(args, 0, "path")
			if err != nil {
				return nil, err
			}
			text, err := str(args, 1, "text")
			if err != nil {
				return nil, err
			}
			if err := alive(); err != nil {
				return nil, err
			}
			f, c, err := rf.open(p, flag, 0o644)
			if err != nil {
				return nil, jsFSError(p, c, err)
			}
			_, werr := f.Write([]byte(text))
			cerr := f.Close()
			if werr != nil {
				return nil, jsFSError(p, c, werr)
			}
			return nil, jsFSError(p, c, cerr)
		}
	}
	funcs := map[string]quickjs.HostFunc{
		"__airlock_out": func(args []any) (any, error) {
			for _, a := range args {
				_, _ = stdout.WriteString(fmt.Sprint(a))
			}
			return nil, nil
		},
		"__airlock_err": func(args []any) (any, error) {
			for _, a := range args {
				_, _ = stderr.WriteString(fmt.Sprint(a))
			}
			return nil, nil
		},
		"readFile": func(args []any) (any, error) {
			p, err := str(args, 0, "path")
			if err != nil {
				return nil, err
			}
			if err := alive(); err != nil {
				return nil, err
			}
			fi, err := rf.stat(p)
			if err == nil && fi.Size() > rf.b.MemoryBytes/4 {
				return nil, fmt.Errorf("readFile: %s is %s, too large to read into the memory bound", p, workspace.HumanSize(fi.Size()))
			}
			f, c, err := rf.open(p, os.O_RDONLY, 0)
			if err != nil {
				return nil, jsFSError(p, c, err)
			}
			defer f.Close()
			data, err := afero.ReadAll(f)
			if err != nil {
				return nil, jsFSError(p, c, err)
			}
			return string(data), nil
		},
		"writeFile":  write(os.O_WRONLY | os.O_CREATE | os.O_TRUNC),
		"appendFile": write(os.O_WRONLY | os.O_CREATE | os.O_APPEND),
		"listDir": func(args []any) (any, error) {
			p := "."
			if len(args) > 0 && args[0] != nil {
				s, err := str(args, 0, "path")
				if err != nil {
					return nil, err
				}
				p = s
			}
			f, c, err := rf.open(p, os.O_RDONLY, 0)
			if err != nil {
				return nil, jsFSError(p, c, err)
			}
			defer f.Close()
			infos, err := f.Readdir(-1)
			if err != nil {
				return nil, jsFSError(p, c, err)
			}
			out := make([]any, 0, len(infos))
			for _, fi := range infos {
				out = append(out, statObject(fi, true))
			}
			return out, nil
		},
		"stat": func(args []any) (any, error) {
			p, err := str(args, 0, "path")
			if err != nil {
				return nil, err
			}
			fi, err := rf.stat(p)
			if isNotExist(err) {
				return nil, nil
			}
			if err != nil {
				return nil, jsFSError(p, "", err)
			}
			return statObject(fi, false), nil
		},
		"exists": func(args []any) (any, error) {
			p, err := str(args, 0, "path")
			if err != nil {
				return nil, err
			}
			_, err = rf.stat(p)
			return err == nil, nil
		},
		"mkdir": func(args []any) (any, error) {
			p, err := str(args, 0, "path")
			if err != nil {
				return nil, err
			}
			return nil, jsFSError(p, "", rf.mkdir(p, true))
		},
		"remove": func(args []any) (any, error) {
			p, err := str(args, 0, "path")
			if err != nil {
				return nil, err
			}
			return nil, jsFSError(p, "", rf.remove(p))
		},
		"rename": func(args []any) (any, error) {
			from, err := str(args, 0, "from")
			if err != nil {
				return nil, err
			}
			to, err := str(args, 1, "to")
			if err != nil {
				return nil, err
			}
			return nil, jsFSError(from, "", rf.rename(from, to))
		},
	}
	for _, n := range []string{"__airlock_out", "__airlock_err", "readFile", "writeFile", "appendFile", "listDir", "stat", "exists", "mkdir", "remove", "rename"} {
		if err := vm.RegisterHostFunc(n, funcs[n]); err != nil {
			return err
		}
	}
	_, err := vm.Eval(jsPrelude, quickjs.EvalGlobal)
	return err
}

func statObject(fi os.FileInfo, withName bool) map[string]any {
	kind := "file"
	if fi.IsDir() {
		kind = "directory"
	} else if fi.Mode()&os.ModeSymlink != 0 {
		kind = "symlink"
	}
	m := map[string]any{"type": kind, "size": fi.Size(), "mtime": fi.ModTime().UnixMilli()}
	if withName {
		m["name"] = fi.Name()
	}
	return m
}

// jsFSError words a workspace error for the code (thrown as an exception).
func jsFSError(p, clean string, err error) error {
	if err == nil {
		return nil
	}
	switch {
	case errors.Is(err, errReadOnly), errors.Is(err, errOutside):
		return fmt.Errorf("%s: %v", p, err)
	case isNotExist(err):
		return fmt.Errorf("%s: no such file or folder in the workspace", p)
	}
	var be *boundErr
	if errors.As(err, &be) {
		return fmt.Errorf("%s: %v", p, err)
	}
	if clean == "" {
		clean = p
	}
	return workspace.FSError(clean, err)
}
