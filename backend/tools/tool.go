package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/afero"
)

// Env is what a running tool may touch: the chat's workspace and nothing else.
type Env struct {
	FS afero.Fs
	// Commit, when set, is called after a tool that changes files ran, so
	// an in-memory workspace is saved.
	Commit func() error
}

// Tool is a spec plus the code that runs it.
type Tool struct {
	Spec
	// Run does the work. Its output is what the model reads. An error is also
	// shown to the model (as an error result), so write it for the model.
	Run func(ctx context.Context, env Env, args json.RawMessage) (string, error)
	// Preview, when set, describes what the call would change before anyone
	// decides (a diff for file writes). Read-only tools leave it nil.
	Preview func(env Env, args json.RawMessage) (json.RawMessage, error)
}

// Toolbox is the set of tools offered to the model, with the registry that
// repairs names and validates arguments against their schemas.
type Toolbox struct {
	tools map[string]Tool
	reg   *Registry
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

// Get finds a tool by its canonical name.
func (b *Toolbox) Get(name string) (Tool, bool) {
	t, ok := b.tools[name]
	return t, ok
}
