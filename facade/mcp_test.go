package facade

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"airlock/backend/tools/mcp"
)

// testServer builds the mcp package's stdio test server (tools echo,
// crash, spawn, where).
func testServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "stdioserver")
	if out, err := exec.Command("go", "build", "-o", bin, "../backend/tools/mcp/testdata/stdioserver").CombinedOutput(); err != nil {
		t.Fatalf("building the test server: %v\n%s", err, out)
	}
	return bin
}

func waitState(t *testing.T, a *App, name string, want mcp.State) MCPServerInfo {
	t.Helper()
	return waitServer(t, a, name, string(want), func(s MCPServerInfo) bool { return s.State == want })
}

// waitServer waits until the server's row satisfies ok.
func waitServer(t *testing.T, a *App, name, what string, ok func(MCPServerInfo) bool) MCPServerInfo {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		for _, s := range a.ListMCPServers().Servers {
			if s.Name == name && ok(s) {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never became %s: %+v", name, what, a.ListMCPServers())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestMCPServersThroughTheApp(t *testing.T) {
	bin := testServer(t)
	a := testApp(t)

	// Added with a secret: the UI only ever sees it masked.
	list, err := a.SaveMCPServer("", mcp.ServerConfig{Name: "local", Enabled: true, Command: bin, Env: map[string]string{"GREETING": "s3cret-value"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := list.Servers[0].Config.Env["GREETING"]; got != mcp.Masked {
		t.Fatalf("the UI got the secret: %q", got)
	}
	ready := waitState(t, a, "local", mcp.StateReady)
	// echo, crash, spawn, spawn_setsid, spawn_orphan, where
	if ready.Tools != 6 {
		t.Fatalf("tools: %+v", ready)
	}
	b, _ := json.Marshal(a.ListMCPServers())
	if strings.Contains(string(b), "s3cret") {
		t.Fatalf("a secret reached the UI: %s", b)
	}

	// Edited with the masked value sent back: the secret is kept.
	form := ready.Config
	form.Args = []string{}
	if _, err := a.SaveMCPServer("local", form); err != nil {
		t.Fatal(err)
	}
	saved, _ := a.savedMCP(a.ctx)
	if saved[0].Env["GREETING"] != "s3cret-value" {
		t.Fatalf("the edit lost the secret: %+v", saved[0].Env)
	}
	waitState(t, a, "local", mcp.StateReady)

	// A chat offers every enabled server's tools, or only those it chose.
	c, _ := a.CreateChat()
	out, err := a.RunTool(c.ID, "mcp__local__where", json.RawMessage(`{}`))
	if err != nil || !strings.HasSuffix(out.Text, "s3cret-value") {
		t.Fatalf("the server's tool ran with its env: %+v %v", out, err)
	}
	if _, err := a.SetChatServers(c.ID, false, []string{}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.RunTool(c.ID, "mcp__local__where", json.RawMessage(`{}`)); err == nil || !strings.Contains(err.Error(), "mcp__local__where") {
		t.Fatalf("a chat without the server must not reach its tools: %v", err)
	}
	got, _ := a.SetChatServers(c.ID, true, nil)
	if got.MCPServers != nil {
		t.Fatalf("all servers: %+v", got.MCPServers)
	}
	// Changing other options keeps the choice.
	_, _ = a.SetChatServers(c.ID, false, []string{"local"})
	got, _ = a.SetChatOptions(c.ID, got.ChatOptions)
	if !slices.Equal(got.MCPServers, []string{"local"}) {
		t.Fatalf("SetChatOptions dropped the servers: %+v", got.MCPServers)
	}

	// Import: new names are added, taken ones skipped with the reason.
	imp, err := a.ImportMCPServers(`{"mcpServers":{"local":{"command":"x"},"missing":{"command":"/nonexistent/airlock-mcp"}}}`)
	if err != nil || !slices.Equal(imp.Added, []string{"missing"}) || len(imp.Skipped) != 1 || !strings.HasPrefix(imp.Skipped[0], "local:") {
		t.Fatalf("import: %+v %v", imp, err)
	}
	failed := waitState(t, a, "missing", mcp.StateFailed)
	if !strings.Contains(failed.Reason, "/nonexistent/airlock-mcp") {
		t.Fatalf("a missing command must say so: %+v", failed)
	}
	if _, err := a.ImportMCPServers(`{"mcpServers": [`); err == nil || !strings.Contains(err.Error(), "invalid_mcp_config") {
		t.Fatalf("a broken paste: %v", err)
	}

	// Disabled, then removed.
	if _, err := a.SetMCPServerEnabled("local", false); err != nil {
		t.Fatal(err)
	}
	waitState(t, a, "local", mcp.StateStopped)
	if _, err := a.DeleteMCPServer("missing"); err != nil {
		t.Fatal(err)
	}
	if names := serverNames(a); !slices.Equal(names, []string{"local"}) {
		t.Fatalf("after delete: %v", names)
	}
}

func serverNames(a *App) []string {
	var out []string
	for _, s := range a.ListMCPServers().Servers {
		out = append(out, s.Name)
	}
	return out
}

func TestMCPConfigFromTheEnvironment(t *testing.T) {
	bin := testServer(t)
	cfg := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(cfg, []byte(`{"mcpServers":{"env-server":{"command":"`+bin+`"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AIRLOCK_MCP_CONFIG", cfg)
	a := testApp(t)
	if err := a.configureMCP(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := waitState(t, a, "env-server", mcp.StateReady)
	if !s.FromEnv {
		t.Fatalf("not marked as from the environment: %+v", s)
	}
	if _, err := a.DeleteMCPServer("env-server"); err == nil || !strings.Contains(err.Error(), "read_only") {
		t.Fatalf("an env server is read-only: %v", err)
	}
	if rows, _ := a.store.ListMCPServers(context.Background()); len(rows) != 0 {
		t.Fatalf("an env server must not be saved: %+v", rows)
	}

	t.Setenv("AIRLOCK_MCP_CONFIG", filepath.Join(t.TempDir(), "absent.json"))
	b := testApp(t)
	if list := b.ListMCPServers(); !strings.Contains(list.EnvError, "absent.json") {
		t.Fatalf("an unreadable AIRLOCK_MCP_CONFIG must be shown: %+v", list)
	}
}
