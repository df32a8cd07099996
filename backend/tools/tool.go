package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/spf13/afero"

	"airlock/backend/chat"
)

// Env is what a running tool may touch: the chat's workspace and nothing else.
type Env struct {
	FS afero.Fs
	// Commit, when set, is called after a tool that changes files ran, so
	// an in-memory workspace is saved.
	Commit func() error
	// Resolve, when set, says where a path given to the tools leads in the
	// workspace: cleaned, its symbolic links followed (workspace.Resolve).
	// Rules on paths match on it; nil means paths are taken as cleaned.
	Resolve func(path string) (string, error)
}

// Kind says where a tool acts, for the cards and the Tool lab.
type Kind string

const (
	KindBuiltin Kind = "builtin" // computes an answer and touches nothing
	KindFiles   Kind = "files"   // reads or changes the chat's workspace
	KindMCP     Kind = "mcp"     // acts outside Airlock, through an MCP server
	KindCode    Kind = "code"    // runs code the model wrote, bounded, on the chat's workspace
)

// Tool is a spec plus the code that runs it. Every built-in tool and every
// tool of an MCP server is one.
type Tool struct {
	Spec
	Kind Kind
	// Server names the MCP server a KindMCP tool belongs to, and Remote
	// the tool's own name there (Name is its sanitised, unique name).
	Server, Remote string
	// Changes says the tool may change the workspace: after it runs the
	// workspace is saved and the UI told.
	Changes bool
	// PathArgs names the arguments that are paths in the workspace (the
	// file tools set it from their argument types). Rules "under a folder"
	// look at these; a tool without any (MCP tools) only takes rules on
	// any arguments or on an argument's exact value.
	PathArgs []string
	// Run does the work. Its output is what the model reads. An error is also
	// shown to the model (as an error result), so write it for the model.
	Run func(ctx context.Context, env Env, args json.RawMessage) (Output, error)
	// Preview, when set, describes what the call would change before anyone
	// decides (a diff for file writes). Read-only tools leave it nil.
	Preview func(env Env, args json.RawMessage) (json.RawMessage, error)
}

// Output is what a run produced: the text the model reads, and what the
// card shows beside it.
type Output struct {
	Text string `json:"text"`
	// Images are shown on the card; the model is told they were.
	Images []Image `json:"images,omitempty"`
	// Structured is the result as JSON, when the tool gives one (MCP's
	// structuredContent).
	Structured json.RawMessage `json:"structured,omitempty"`
	// IsError says the tool reported a failure; Text says what.
	IsError bool `json:"isError,omitempty"`
}

// Image is a picture a tool returned.
type Image = chat.Image

// Says is an Output of text only.
func Says(text string) Output { return Output{Text: text} }

// TextRun adapts a run function whose output is only text.
func TextRun(f func(ctx context.Context, env Env, args json.RawMessage) (string, error)) func(context.Context, Env, json.RawMessage) (Output, error) {
	return func(ctx context.Context, env Env, args json.RawMessage) (Output, error) {
		text, err := f(ctx, env, args)
		return Says(text), err
	}
}

// Toolbox is the set of tools offered to the model, with the registry that
// repairs names and validates arguments against their schemas.
type Toolbox struct {
	tools map[string]Tool
	reg   *Registry

	onlyMu sync.Mutex
	only   map[string]*Toolbox // narrowed toolboxes, by the names kept (Only)
}

// NewToolbox checks the tools' specs and schemas.
func NewToolbox(tools ...Tool) (*Toolbox, error) {
	specs := make([]Spec, len(tools))
	byName := make(map[string]Tool, len(tools))
	for i, t := range tools {
		if t.Run == nil {
			return nil, fmt.Errorf("tool %q has no Run function", t.Name)
		}
		specs[i] = t.Spec
		byName[t.Name] = t
	}
	reg, err := NewRegistry(specs)
	if err != nil {
		return nil, err
	}
	return &Toolbox{tools: byName, reg: reg}, nil
}

// Registry returns the specs' registry (for scanning and validation).
func (b *Toolbox) Registry() *Registry { return b.reg }

// Specs lists the tools in the order they were given.
func (b *Toolbox) Specs() []Spec { return b.reg.Specs() }

// Tools lists the tools in the order they were given.
func (b *Toolbox) Tools() []Tool {
	out := make([]Tool, 0, len(b.tools))
	for _, s := range b.Specs() {
		out = append(out, b.tools[s.Name])
	}
	return out
}

// Get finds a tool by its canonical name.
func (b *Toolbox) Get(name string) (Tool, bool) {
	t, ok := b.tools[name]
	return t, ok
}

// maxOnly bounds the narrowed toolboxes a toolbox keeps (one per set of
// names asked for: a few per chat); past it they are built again.
const maxOnly = 64

// Only is the toolbox narrowed to the named tools (in this toolbox's
// order; names it does not hold are ignored). The same names give the same
// toolbox, built once.
func (b *Toolbox) Only(names []string) *Toolbox {
	key := strings.Join(names, "\x00")
	b.onlyMu.Lock()
	defer b.onlyMu.Unlock()
	if o, ok := b.only[key]; ok {
		return o
	}
	keep := make(map[string]bool, len(names))
	for _, n := range names {
		keep[n] = true
	}
	var ts []Tool
	for _, t := range b.Tools() {
		if keep[t.Name] {
			ts = append(ts, t)
		}
	}
	o := b
	if len(ts) < len(b.tools) {
		var err error
		if o, err = NewToolbox(ts...); err != nil { // each tool was already accepted in b
			o = b
		}
	}
	if b.only == nil || len(b.only) >= maxOnly {
		b.only = map[string]*Toolbox{}
	}
	b.only[key] = o
	return o
}
