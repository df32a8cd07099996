// Package code holds the tools that run code the model wrote, after a person
// approved it: run_javascript (QuickJS, modernc.org/quickjs) and run_python
// (CPython 3.12 for WASI on wazero). One file per tool. Both are pure Go,
// run in-process, and see nothing of the machine but the chat's workspace:
// no network, no environment, no host paths. Every run is bounded (Limits):
// wall time, memory, output, files and bytes written. A run that hits a
// bound stops and says which one.
//
// Writes go through the chat's afero filesystem (tools.Env.FS), the road
// the file tools take: overlay layers, folder checkpoints for Undo, the
// Changes view. The run's Report (Output.Structured) lists the files the
// run changed, with diffs, beside its output, return value, time and memory.
package code

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"airlock/backend/chat"
	"airlock/backend/tools"
	"airlock/backend/uitext"
	"airlock/backend/workspace"
)

// Limits are the bounds of every run, each a number in Settings.
type Limits struct {
	TimeoutSeconds int `json:"timeoutSeconds"` // wall time of a run
	MemoryMiB      int `json:"memoryMiB"`      // the engine's heap (QuickJS) or linear memory (WASM)
	OutputKiB      int `json:"outputKiB"`      // stdout and stderr, each; the rest is cut with a note
	MaxFiles       int `json:"maxFiles"`       // files a run may create, change or delete
	MaxWriteMiB    int `json:"maxWriteMiB"`    // bytes a run may write in all
}

// The ranges Settings accepts.
const (
	MaxTimeoutSeconds = 60
	MinMemoryMiB      = 32
	MaxMemoryMiB      = 256
	MaxOutputKiB      = 32 // the engine shows the model at most 32 KiB of a result
	MaxFilesBound     = 1000
	MaxWriteMiBBound  = 256
	MaxCodeBytes      = 256 << 10 // the code itself
)

// DefaultLimits is what a first run starts with.
func DefaultLimits() Limits {
	return Limits{TimeoutSeconds: 10, MemoryMiB: 128, OutputKiB: 16, MaxFiles: 50, MaxWriteMiB: 10}
}

// Validate says what is wrong with a set of limits, in words for Settings.
func (l Limits) Validate() error {
	var bad []uitext.Text
	check := func(t uitext.Template, v, lo, hi int) {
		if v < lo || v > hi {
			bad = append(bad, t.With("lo", lo, "hi", hi, "got", v))
		}
	}
	check(txtLimitTime, l.TimeoutSeconds, 1, MaxTimeoutSeconds)
	check(txtLimitMemory, l.MemoryMiB, MinMemoryMiB, MaxMemoryMiB)
	check(txtLimitOutput, l.OutputKiB, 1, MaxOutputKiB)
	check(txtLimitFiles, l.MaxFiles, 0, MaxFilesBound)
	check(txtLimitBytes, l.MaxWriteMiB, 1, MaxWriteMiBBound)
	if len(bad) > 0 {
		return chat.Coded("invalid_limits", chat.ErrInvalid, txtLimits.With("issues", bad))
	}
	return nil
}

// Config is what the tools need from the app.
type Config struct {
	// Limits reads the bounds in Settings as they are now (nil: defaults).
	Limits func(ctx context.Context) Limits
	// Python says where python.wasm is and where compiled code is cached.
	Python PythonConfig
}

func (c Config) limits(ctx context.Context) Limits {
	if c.Limits == nil {
		return DefaultLimits()
	}
	l := c.Limits(ctx)
	if l.Validate() != nil {
		return DefaultLimits()
	}
	return l
}

// Tools returns run_javascript and run_python.
func Tools(cfg Config) []tools.Tool {
	return []tools.Tool{runJavaScript(cfg), runPython(cfg)}
}

// args are the arguments of both tools.
type args struct {
	Code     string
	Timeout  int // seconds; 0: the bound in Settings
	ReadOnly bool
}

func schema(lang, example string) json.RawMessage {
	s := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"code": map[string]any{"type": "string", "minLength": 1,
				"description": "The " + lang + " program to run. Example: " + strconv.Quote(example)},
			"timeout": map[string]any{"type": "integer", "minimum": 1, "maximum": MaxTimeoutSeconds,
				"description": "Seconds the run may take; at most the bound the user set (10 by default)."},
			"read_only": map[string]any{"type": "boolean",
				"description": "true runs the code without letting it change files."},
		},
		"required":             []string{"code"},
		"additionalProperties": false,
	}
	raw, _ := json.Marshal(s)
	return raw
}

func decodeArgs(tool string, raw json.RawMessage) (args, error) {
	var in struct {
		Code     *string         `json:"code"`
		Timeout  json.RawMessage `json:"timeout"`
		ReadOnly json.RawMessage `json:"read_only"`
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return args{}, invalid(txtArgsNotObject, "tool", tool, "reason", err.Error())
	}
	if in.Code == nil || strings.TrimSpace(*in.Code) == "" {
		return args{}, invalid(txtNeedsCode, "tool", tool)
	}
	if len(*in.Code) > MaxCodeBytes {
		return args{}, invalid(txtCodeTooLong, "tool", tool, "size", workspace.HumanSize(int64(len(*in.Code))), "max", workspace.HumanSize(MaxCodeBytes))
	}
	a := args{Code: *in.Code}
	if s := strings.Trim(strings.TrimSpace(string(in.Timeout)), `"`); s != "" && s != "null" {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || f < 1 || f > MaxTimeoutSeconds || f != float64(int(f)) {
			return args{}, invalid(txtBadTimeout, "tool", tool, "max", MaxTimeoutSeconds, "got", s)
		}
		a.Timeout = int(f)
	}
	switch strings.ToLower(strings.Trim(strings.TrimSpace(string(in.ReadOnly)), `"`)) {
	case "", "null", "false":
	case "true":
		a.ReadOnly = true
	default:
		return args{}, invalid(txtBadReadOnly, "tool", tool)
	}
	return a, nil
}

func invalid(t uitext.Template, pairs ...any) error {
	return chat.Coded(workspace.CodeInvalidArgs, chat.ErrInvalid, t.With(pairs...))
}

// Bounds are the limits one run takes (the card shows them).
type Bounds struct {
	TimeoutMs   int64 `json:"timeoutMs"`
	MemoryBytes int64 `json:"memoryBytes"`
	OutputBytes int   `json:"outputBytes"`
	MaxFiles    int   `json:"maxFiles"`
	WriteBytes  int64 `json:"writeBytes"`
}

func boundsOf(l Limits, a args) Bounds {
	secs := l.TimeoutSeconds
	if a.Timeout > 0 && a.Timeout < secs {
		secs = a.Timeout
	}
	return Bounds{TimeoutMs: int64(secs) * 1000, MemoryBytes: int64(l.MemoryMiB) << 20,
		OutputBytes: l.OutputKiB << 10, MaxFiles: l.MaxFiles, WriteBytes: int64(l.MaxWriteMiB) << 20}
}

// Plan is what the card shows before anyone decides (Tool.Preview).
type Plan struct {
	Engine   string `json:"engine"`
	Language string `json:"language"` // "javascript" or "python"
	Bounds   Bounds `json:"bounds"`
	ReadOnly bool   `json:"readOnly"`
	Lines    int    `json:"lines"`
}

// Bound names, in a Report's Bound when a run hit one.
const (
	BoundTime   = "time"
	BoundMemory = "memory"
	BoundStack  = "stack"
	BoundFiles  = "files"
	BoundWrite  = "write"
	BoundOutput = "output" // not fatal: the run went on, its output was cut
)

// Report is what one run did (Output.Structured; the card shows it).
type Report struct {
	Plan
	Stdout          string       `json:"stdout"`
	Stderr          string       `json:"stderr"`
	StdoutCut       int64        `json:"stdoutCut,omitempty"` // bytes left out
	StderrCut       int64        `json:"stderrCut,omitempty"`
	Value           string       `json:"value,omitempty"` // the return value (last expression), as text
	Error           string       `json:"error,omitempty"` // the exception or bound that ended it
	Bound           string       `json:"bound,omitempty"` // the bound it hit (Bound*), if any
	ExitCode        int          `json:"exitCode"`
	Files           []FileChange `json:"files,omitempty"`
	DurationMs      int64        `json:"durationMs"`
	MemoryBytes     int64        `json:"memoryBytes,omitempty"` // peak engine memory when known
	StartMs         int64        `json:"startMs"`               // time to get the engine ready
	Cancelled       bool         `json:"cancelled,omitempty"`
	WrittenBytes    int64        `json:"writtenBytes,omitempty"`
	ReadOnlyRefused int          `json:"readOnlyRefused,omitempty"` // writes refused in a read-only run
}

// FileChange is one file a run changed.
type FileChange struct {
	Path   string `json:"path"`
	Change string `json:"change"` // "created", "modified", "deleted"
	Diff   string `json:"diff,omitempty"`
	Size   int64  `json:"size"`
}

// runFunc runs the code and fills the report.
type runFunc func(ctx context.Context, rf *runFS, a args, b Bounds, rep *Report) error

// codeTool makes a tool of an engine: it decodes the arguments, bounds the
// run, gives it the workspace and turns what happened into the text the
// model reads and the report the card shows.
func codeTool(cfg Config, name, lang, engine, description, example string, run runFunc) tools.Tool {
	plan := func(ctx context.Context, raw json.RawMessage) (args, Plan, error) {
		a, err := decodeArgs(name, raw)
		if err != nil {
			return a, Plan{}, err
		}
		return a, Plan{Engine: engine, Language: lang, Bounds: boundsOf(cfg.limits(ctx), a), ReadOnly: a.ReadOnly,
			Lines: strings.Count(strings.TrimRight(a.Code, "\n"), "\n") + 1}, nil
	}
	return tools.Tool{
		Spec:    tools.Spec{Name: name, Description: description, Parameters: schema(lang, example)},
		Kind:    tools.KindCode,
		Changes: true,
		Preview: func(_ tools.Env, raw json.RawMessage) (json.RawMessage, error) {
			_, p, err := plan(context.Background(), raw)
			if err != nil {
				return nil, err
			}
			return json.Marshal(p)
		},
		Run: func(ctx context.Context, env tools.Env, raw json.RawMessage) (tools.Output, error) {
			a, p, err := plan(ctx, raw)
			if err != nil {
				return tools.Output{}, err
			}
			if env.FS == nil {
				return tools.Output{}, chat.Coded(workspace.CodeIO, chat.ErrInvalid, txtNoWorkspace.With())
			}
			rep := &Report{Plan: p}
			rf := newRunFS(env.FS, a.ReadOnly, p.Bounds)
			err = run(ctx, rf, a, p.Bounds, rep)
			switch {
			case errors.Is(err, errWallTime) && ctx.Err() == nil:
				rep.Bound, rep.Error = BoundTime, fmt.Sprintf("stopped: the run hit the wall-time bound (%s)", time.Duration(p.Bounds.TimeoutMs)*time.Millisecond)
			case ctx.Err() != nil:
				rep.Cancelled, rep.Error = true, "stopped: the run was cancelled"
			case rf.bound() != nil:
				rep.Bound, rep.Error = rf.boundName(), "stopped: "+rf.bound().Error()
			case err != nil && rep.Error == "":
				rep.Error = err.Error()
			}
			rep.Files, rep.WrittenBytes, rep.ReadOnlyRefused = rf.changes()
			out := tools.Output{Text: rep.text(), IsError: rep.Error != ""}
			out.Structured, _ = json.Marshal(rep)
			return out, nil
		},
	}
}

var errWallTime = errors.New("wall-time bound")

// wallTime starts a run's clock, once its engine is ready (compiling
// python.wasm the first time does not count). When it ends, the run's
// error is errWallTime (context.Cause).
func wallTime(ctx context.Context, b Bounds) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, time.Duration(b.TimeoutMs)*time.Millisecond, errWallTime)
}

// text is what the model reads of a run.
func (r *Report) text() string {
	var b strings.Builder
	section := func(title, body string, cut int64) {
		if body == "" && cut == 0 {
			return
		}
		fmt.Fprintf(&b, "%s:\n%s", title, body)
		if !strings.HasSuffix(body, "\n") {
			b.WriteByte('\n')
		}
		if cut > 0 {
			fmt.Fprintf(&b, "[%s cut at the output bound: %s more were left out]\n", strings.ToLower(title), workspace.HumanSize(cut))
		}
	}
	if r.Error != "" {
		fmt.Fprintf(&b, "The %s run failed: %s\n", r.Engine, r.Error)
	}
	section("stdout", r.Stdout, r.StdoutCut)
	section("stderr", r.Stderr, r.StderrCut)
	if r.Value != "" {
		fmt.Fprintf(&b, "return value: %s\n", r.Value)
	}
	if len(r.Files) > 0 {
		b.WriteString("files changed:")
		for _, f := range r.Files {
			fmt.Fprintf(&b, " %s (%s)", f.Path, f.Change)
		}
		b.WriteByte('\n')
	}
	if r.ReadOnlyRefused > 0 {
		fmt.Fprintf(&b, "read-only run: %d write(s) were refused\n", r.ReadOnlyRefused)
	}
	if b.Len() == 0 {
		b.WriteString("The run finished with no output.\n")
	}
	fmt.Fprintf(&b, "(%s, %d ms)", r.Engine, r.DurationMs)
	return b.String()
}
