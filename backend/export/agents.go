package export

import (
	"bytes"
	"encoding/json"
	"io"

	"airlock/backend/chat"
)

// AgentsFormat identifies a file of agents (Settings → Agents → Export).
const (
	AgentsFormat  = "airlock-agents"
	AgentsVersion = 1
)

// AgentsFile is a file of agents: each one by value, without what is local
// to this machine (the provider it starts on, IDs, times). Never a key.
type AgentsFile struct {
	Format  string       `json:"format"`
	Version int          `json:"version"`
	Agents  []chat.Agent `json:"agents"`
}

// Portable is an agent as it travels: no provider (a provider, and its key,
// stay on this machine), no ID or times, not built in.
func Portable(a chat.Agent) chat.Agent {
	a.ID, a.ProviderID, a.BuiltIn, a.CreatedAt, a.UpdatedAt = "", "", false, 0, 0
	return a
}

// WriteAgents writes agents as an indented JSON file.
func WriteAgents(w io.Writer, as []chat.Agent) error {
	f := AgentsFile{Format: AgentsFormat, Version: AgentsVersion, Agents: make([]chat.Agent, len(as))}
	for i, a := range as {
		f.Agents[i] = Portable(a)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(f)
}

// ReadAgents reads a file of agents; it checks the format and the count
// (the store checks each agent as it adds it, all or none).
func ReadAgents(r io.Reader) ([]chat.Agent, error) {
	data, err := readCapped(r)
	if err != nil {
		return nil, err
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, importError("the file is empty")
	}
	var f AgentsFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, importError("not a file of agents: %v", err)
	}
	switch {
	case f.Format != AgentsFormat:
		return nil, importError("not a file of agents (format %q, want %q)", f.Format, AgentsFormat)
	case f.Version < 1 || f.Version > AgentsVersion:
		return nil, importError("unsupported agents file version %d (this Airlock reads version %d)", f.Version, AgentsVersion)
	case len(f.Agents) == 0:
		return nil, importError("the file holds no agents")
	case len(f.Agents) > chat.MaxAgents:
		return nil, importError("the file holds %d agents; at most %d can be imported", len(f.Agents), chat.MaxAgents)
	}
	for i := range f.Agents {
		f.Agents[i] = Portable(f.Agents[i])
	}
	return f.Agents, nil
}
