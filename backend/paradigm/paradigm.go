// Package paradigm is how a chat asks a model for tool calls written as
// text, and reads them back. A paradigm has the three verbs of the seam:
// Prompt (teach the syntax and list the tools), Parse (complete message →
// calls and problems) and FormatResults (results → the text of the user
// message that carries them back); FormatCalls writes calls the way the
// prompt teaches, for round trips, demos and the Tool lab.
//
// Scan is the scanner behind every Parse: it reads the paradigm's own
// syntax and, when asked, the formats model families are trained to emit.
// Everything here is pure: text in, calls out.
package paradigm

import (
	"sort"

	"airlock/backend/chat"
	"airlock/backend/tools"
)

// Paradigm is one way of writing tool calls as text.
type Paradigm interface {
	ID() string    // "json", "xml", "vcp"
	Label() string // for people: "JSON", "XML tags", "VCP"
	// Prompt teaches the syntax and lists the tools; it goes into the
	// system prompt. Empty when there are no tools.
	Prompt(specs []tools.Spec) string
	// Parse reads the calls written in this paradigm's own syntax only,
	// names and arguments as written. Scan does more (other formats,
	// a registry); Parse is Scan with this paradigm and nothing else.
	Parse(text string) Result
	// FormatResults writes the user message that carries results back.
	FormatResults(rs []chat.ToolResult) string
	// FormatCalls writes calls the way Prompt teaches (Parse reads them
	// back as the same calls).
	FormatCalls(calls []chat.ToolCall) string
}

var registry = map[string]Paradigm{}

func register(p Paradigm) { registry[p.ID()] = p }

func init() {
	register(jsonParadigm{})
	register(xmlParadigm{})
	register(vcpParadigm{})
}

// Default is the paradigm of a new chat.
const Default = "json"

// Get returns a paradigm by id.
func Get(id string) (Paradigm, bool) {
	p, ok := registry[id]
	return p, ok
}

// All returns the paradigms, JSON first.
func All() []Paradigm {
	out := make([]Paradigm, 0, len(registry))
	for _, p := range registry {
		out = append(out, p)
	}
	order := map[string]int{"json": 0, "xml": 1, "vcp": 2}
	sort.Slice(out, func(i, j int) bool {
		oi, iok := order[out[i].ID()]
		oj, jok := order[out[j].ID()]
		if iok && jok {
			return oi < oj
		}
		if iok != jok {
			return iok
		}
		return out[i].ID() < out[j].ID()
	})
	return out
}
