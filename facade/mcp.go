package facade

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"airlock/backend/chat"
	"airlock/backend/store"
	"airlock/backend/tools/mcp"
	"airlock/backend/uitext"
)

// EventMCPChanged tells the UI a server's status or tools changed.
const EventMCPChanged = "mcp:changed"

// maxMCPConfig bounds an MCP config file or paste: real ones are a few KB.
const maxMCPConfig = 1 << 20

// MCPServerInfo is one server as Settings → Tools shows it. Its settings are
// redacted (env values and headers masked): secrets never reach the UI.
type MCPServerInfo struct {
	mcp.Status
	// FromEnv says the server comes from AIRLOCK_MCP_CONFIG: it runs for this
	// session, is not saved, and is changed in that file.
	FromEnv bool `json:"fromEnv"`
	// Auth: signed_out, signing_in, signed_in, expired, refused ("" when
	// the server never asked for a sign-in); AuthError says why refused.
	Auth          string       `json:"auth,omitempty"`
	AuthError     string       `json:"authError,omitempty"`
	AuthErrorText *uitext.Text `json:"authErrorText,omitempty"`
	// InstructionsOn says the server's instructions go into the system
	// prompt (mcp_instructions.go).
	InstructionsOn bool `json:"instructionsOn"`
}

// MCPServers is the list of servers, with what went wrong reading
// AIRLOCK_MCP_CONFIG, if anything.
type MCPServers struct {
	Servers  []MCPServerInfo `json:"servers"`
	EnvFile  string          `json:"envFile,omitempty"`
	EnvError string          `json:"envError,omitempty"`
}

// MCPImport says what an import did.
type MCPImport struct {
	Added   []string `json:"added"`
	Skipped []string `json:"skipped"` // "name: why"
}

// mcpEnv reads AIRLOCK_MCP_CONFIG (Claude Desktop's format): servers added
// for this run, as AIRLOCK_BASE_URL adds a provider.
func mcpEnv() (path string, cfgs []mcp.ServerConfig, err error) {
	path = strings.TrimSpace(os.Getenv("AIRLOCK_MCP_CONFIG"))
	if path == "" {
		return "", nil, nil
	}
	data, err := readCapped(path)
	if err == nil {
		cfgs, err = mcp.ParseConfig(data)
	}
	if err != nil {
		return path, nil, fmt.Errorf("AIRLOCK_MCP_CONFIG (%s): %w", path, err)
	}
	return path, cfgs, nil
}

func readCapped(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxMCPConfig+1))
	if err == nil && len(data) > maxMCPConfig {
		err = fmt.Errorf("the file is larger than %d KB; an MCP config is a few KB", maxMCPConfig>>10)
	}
	return data, err
}

// savedMCP reads the servers kept in the database.
func (a *App) savedMCP(ctx context.Context) ([]mcp.ServerConfig, error) {
	rows, err := a.store.ListMCPServers(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]mcp.ServerConfig, 0, len(rows))
	for _, r := range rows {
		var c mcp.ServerConfig
		if err := json.Unmarshal(r.Config, &c); err != nil {
			return nil, fmt.Errorf("MCP server %q: its saved settings cannot be read: %w", r.Name, err)
		}
		c.Name, c.Enabled = r.Name, r.Enabled
		out = append(out, c)
	}
	return out, nil
}

// configureMCP gives the manager the saved servers and those of
// AIRLOCK_MCP_CONFIG (which win over a saved one of the same name).
func (a *App) configureMCP(ctx context.Context) error {
	saved, err := a.savedMCP(ctx)
	if err != nil {
		return err
	}
	all := slices.DeleteFunc(saved, func(c mcp.ServerConfig) bool { return a.fromEnv(c.Name) })
	all = append(all, a.mcpEnv...)
	return a.mcp.Configure(all)
}

func (a *App) fromEnv(name string) bool {
	return slices.ContainsFunc(a.mcpEnv, func(c mcp.ServerConfig) bool { return c.Name == name })
}

// mcpChanged runs when a server's status or tools changed.
func (a *App) mcpChanged() {
	a.tools.Changed()
	a.emit(EventMCPChanged, nil)
}

// waitForMCP gives servers still starting (just after launch, or after a
// change) a moment, so the model is offered their tools.
func (a *App) waitForMCP(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	_ = a.mcp.Wait(ctx)
}

// ListMCPServers lists the servers and how each is doing.
func (a *App) ListMCPServers() MCPServers {
	out := MCPServers{Servers: []MCPServerInfo{}, EnvFile: a.mcpEnvFile}
	if a.mcpEnvErr != nil {
		out.EnvError = a.mcpEnvErr.Error()
	}
	off := a.instructionsOff(a.ctx)
	for _, s := range a.mcp.Status() {
		info := MCPServerInfo{Status: s, FromEnv: a.fromEnv(s.Name), InstructionsOn: !off[s.Name]}
		var why uitext.Text
		info.Auth, why = a.authState(s)
		info.AuthError, info.AuthErrorText = why.English, codedText(why)
		out.Servers = append(out.Servers, info)
	}
	return out
}

// SaveMCPServer adds a server (previous "") or changes the one called
// previous. Env values and headers left masked keep their saved values, so
// editing a server never needs its secrets shown.
func (a *App) SaveMCPServer(previous string, cfg mcp.ServerConfig) (MCPServers, error) {
	ctx := a.ctx
	cfg.Name = strings.TrimSpace(cfg.Name)
	if a.fromEnv(previous) || a.fromEnv(cfg.Name) {
		return a.ListMCPServers(), toAPI(refuse("read_only", chat.ErrInvalid, txtMCPFromEnv, "name", strconv.Quote(cfg.Name)))
	}
	if previous != "" {
		saved, err := a.savedMCP(ctx)
		if err != nil {
			return a.ListMCPServers(), toAPI(err)
		}
		if i := slices.IndexFunc(saved, func(c mcp.ServerConfig) bool { return c.Name == previous }); i >= 0 {
			if cfg, err = cfg.Unmask(saved[i]); err != nil {
				return a.ListMCPServers(), toAPI(chat.Coded("invalid_mcp_server", chat.ErrInvalid, uitext.Of(err)))
			}
		}
	}
	if err := cfg.Validate(); err != nil {
		return a.ListMCPServers(), toAPI(chat.Coded("invalid_mcp_server", chat.ErrInvalid, uitext.Of(err)))
	}
	if err := a.saveMCP(ctx, cfg, previous); err != nil {
		return a.ListMCPServers(), toAPI(err)
	}
	a.renameInstructions(ctx, previous, cfg.Name)
	return a.reconfigured()
}

func (a *App) saveMCP(ctx context.Context, cfg mcp.ServerConfig, previous string) error {
	raw, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	_, err = a.store.SaveMCPServer(ctx, store.MCPServer{Name: cfg.Name, Enabled: cfg.Enabled, Config: raw}, previous)
	return err
}

// reconfigured applies the saved settings and lists the servers after.
func (a *App) reconfigured() (MCPServers, error) {
	err := a.configureMCP(a.ctx)
	return a.ListMCPServers(), toAPI(err)
}

// SetMCPServerEnabled turns a saved server on or off.
func (a *App) SetMCPServerEnabled(name string, enabled bool) (MCPServers, error) {
	if a.fromEnv(name) {
		return a.ListMCPServers(), toAPI(refuse("read_only", chat.ErrInvalid, txtMCPFromEnv, "name", strconv.Quote(name)))
	}
	if err := a.store.SetMCPServerEnabled(a.ctx, name, enabled); err != nil {
		return a.ListMCPServers(), toAPI(err)
	}
	return a.reconfigured()
}

// DeleteMCPServer removes a saved server and stops it. Chats that chose it
// keep its name and offer nothing for it.
func (a *App) DeleteMCPServer(name string) (MCPServers, error) {
	if a.fromEnv(name) {
		return a.ListMCPServers(), toAPI(refuse("read_only", chat.ErrInvalid, txtMCPFromEnv, "name", strconv.Quote(name)))
	}
	if err := a.store.DeleteMCPServer(a.ctx, name); err != nil {
		return a.ListMCPServers(), toAPI(err)
	}
	_ = a.store.SetMCPGrant(a.ctx, name, "") // its sign-in goes with it
	a.renameInstructions(a.ctx, name, "")
	return a.reconfigured()
}

// RestartMCPServer stops a server and starts it again, waiting until it is
// ready or has failed (its status then says why).
func (a *App) RestartMCPServer(name string) (MCPServers, error) {
	err := a.mcp.Restart(a.ctx, name)
	if err != nil {
		err = chat.Errorf("mcp_failed", chat.ErrInvalid, "%s", err.Error())
	}
	return a.ListMCPServers(), toAPI(err)
}

// ImportMCPServers adds the servers of an mcpServers JSON (Claude Desktop,
// Cursor, VS Code) pasted by the user. A name already taken is skipped.
func (a *App) ImportMCPServers(text string) (MCPImport, error) {
	if len(text) > maxMCPConfig {
		return MCPImport{}, toAPI(refuse("invalid_mcp_config", chat.ErrInvalid, txtMCPTooLarge, "kb", maxMCPConfig>>10))
	}
	cfgs, err := mcp.ParseConfig([]byte(text))
	if err != nil {
		return MCPImport{}, toAPI(chat.Errorf("invalid_mcp_config", chat.ErrInvalid, "%s", err.Error()))
	}
	res := MCPImport{Added: []string{}, Skipped: []string{}}
	taken := map[string]bool{}
	for _, s := range a.mcp.Status() {
		taken[s.Name] = true
	}
	for _, c := range cfgs {
		if taken[c.Name] {
			res.Skipped = append(res.Skipped, c.Name+": a server with this name exists already")
			continue
		}
		if err := a.saveMCP(a.ctx, c, ""); err != nil {
			res.Skipped = append(res.Skipped, c.Name+": "+err.Error())
			continue
		}
		res.Added = append(res.Added, c.Name)
	}
	_, err = a.reconfigured()
	return res, err
}

// ImportMCPFile imports a config file chosen in the native open dialog
// (claude_desktop_config.json, .cursor/mcp.json, .vscode/mcp.json). Its
// contents never reach the UI: only the names added.
func (a *App) ImportMCPFile() (MCPImport, error) {
	path, err := runtime.OpenFileDialog(a.ctx, runtime.OpenDialogOptions{
		Title:   "Import MCP servers (claude_desktop_config.json, mcp.json)",
		Filters: []runtime.FileFilter{{DisplayName: "JSON files", Pattern: "*.json"}},
	})
	if err != nil || path == "" {
		return MCPImport{Added: []string{}, Skipped: []string{}}, toAPI(err)
	}
	data, err := readCapped(path)
	if err != nil {
		return MCPImport{}, toAPI(refuse("invalid_mcp_config", chat.ErrInvalid, txtReadFailed, "path", path, "reason", err.Error()))
	}
	return a.ImportMCPServers(string(data))
}
