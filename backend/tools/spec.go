// Package tools describes the tools a model may call: their specs (name,
// description, JSON Schema of the arguments), a registry that repairs the
// names models write and validates (and coerces) the arguments they send.
//
// Running tools is not here yet; a Tool that embeds Spec and adds Run is
// meant to sit beside it.
package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Spec is what the model is told about one tool.
type Spec struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Parameters is a JSON Schema for the arguments object; empty means the
	// tool takes no arguments (any object is accepted).
	Parameters json.RawMessage `json:"parameters,omitempty"`
}

// ParseSpecs reads a JSON array of specs. Besides Airlock's own
// {name, description, parameters}, it accepts OpenAI's
// {"type":"function","function":{...}} items and an object {"tools":[...]}.
func ParseSpecs(data []byte) ([]Spec, error) {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '{' {
		var wrap struct {
			Tools json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(data, &wrap); err != nil {
			return nil, fmt.Errorf("tool specs: %w", err)
		}
		if wrap.Tools == nil {
			return nil, fmt.Errorf("tool specs: expected a JSON array of {name, description, parameters}")
		}
		data = wrap.Tools
	}
	var items []struct {
		Spec
		InputSchema json.RawMessage `json:"input_schema"` // Anthropic/MCP spelling
		Function    *Spec           `json:"function"`
	}
	if err := json.Unmarshal(data, &items); err != nil {
		return nil, fmt.Errorf("tool specs: expected a JSON array of {name, description, parameters}: %w", err)
	}
	specs := make([]Spec, 0, len(items))
	for i, it := range items {
		s := it.Spec
		if it.Function != nil && s.Name == "" {
			s = *it.Function
		}
		if len(s.Parameters) == 0 && len(it.InputSchema) > 0 {
			s.Parameters = it.InputSchema
		}
		s.Name = strings.TrimSpace(s.Name)
		if s.Name == "" {
			return nil, fmt.Errorf("tool specs: item %d has no name", i)
		}
		if isNull(s.Parameters) {
			s.Parameters = nil
		}
		specs = append(specs, s)
	}
	return specs, nil
}

// LoadSpecsFile reads specs from a file (see ParseSpecs).
func LoadSpecsFile(path string) ([]Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseSpecs(data)
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}
