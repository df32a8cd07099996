package facade

import (
	"context"
	"encoding/json"
	"slices"

	"airlock/backend/chat"
	"airlock/backend/engine"
)

// keyInstructionsOff is the setting that lists the MCP servers whose
// instructions stay out of the system prompt (JSON array of names): a
// server's instructions are on until the person turns them off.
const keyInstructionsOff = "mcp_instructions_off"

// instructionsOff is the set of servers whose instructions are off.
func (a *App) instructionsOff(ctx context.Context) map[string]bool {
	off := map[string]bool{}
	if v, ok, err := a.store.GetValue(ctx, keyInstructionsOff); err == nil && ok {
		var names []string
		if json.Unmarshal([]byte(v), &names) == nil {
			for _, n := range names {
				off[n] = true
			}
		}
	}
	return off
}

func (a *App) saveInstructionsOff(ctx context.Context, off map[string]bool) error {
	names := []string{}
	for n, o := range off {
		if o {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	raw, _ := json.Marshal(names)
	return a.store.SetValue(ctx, keyInstructionsOff, string(raw))
}

// SetMCPInstructions turns a server's instructions in the system prompt on
// or off; the choice is kept (also for servers of AIRLOCK_MCP_CONFIG).
func (a *App) SetMCPInstructions(name string, on bool) (MCPServers, error) {
	if _, ok := a.mcp.ServerStatus(name); !ok {
		return a.ListMCPServers(), toAPI(chat.Errorf("not_found", chat.ErrNotFound, "There is no MCP server called %q.", name))
	}
	off := a.instructionsOff(a.ctx)
	off[name] = !on
	if err := a.saveInstructionsOff(a.ctx, off); err != nil {
		return a.ListMCPServers(), toAPI(err)
	}
	return a.ListMCPServers(), nil
}

// renameInstructions carries a server's choice to its new name, or drops
// it with the server (to "").
func (a *App) renameInstructions(ctx context.Context, from, to string) {
	off := a.instructionsOff(ctx)
	if from == "" || from == to || !off[from] {
		return
	}
	delete(off, from)
	if to != "" {
		off[to] = true
	}
	_ = a.saveInstructionsOff(ctx, off)
}

// chatInstructions gives the engine the instructions of the ready servers
// whose instructions are on; the engine keeps those of the servers whose
// tools the chat offers.
func (a *App) chatInstructions(ctx context.Context, _ chat.Chat) []engine.ServerInstructions {
	off := a.instructionsOff(ctx)
	var out []engine.ServerInstructions
	for _, s := range a.mcp.Status() {
		if s.Instructions != "" && !off[s.Name] {
			out = append(out, engine.ServerInstructions{Server: s.Name, Text: s.Instructions})
		}
	}
	return out
}
