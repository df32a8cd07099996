package mcp

import (
	"encoding/json"
	"errors"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseClaudeDesktop(t *testing.T) {
	cfgs, err := ParseConfig([]byte(`{
	  "mcpServers": {
	    "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"]},
	    "github": {"command": "docker", "args": ["run", "-i", "--rm", "ghcr.io/github/github-mcp-server"],
	               "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_secret", "PORT": 8080, "DEBUG": true}},
	    "off": {"command": "uvx", "args": ["mcp-server-git"], "disabled": true, "autoApprove": []}
	  },
	  "globalShortcut": ""
	}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []ServerConfig{
		{Name: "filesystem", Enabled: true, Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"}},
		{Name: "github", Enabled: true, Command: "docker", Args: []string{"run", "-i", "--rm", "ghcr.io/github/github-mcp-server"},
			Env: map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_secret", "PORT": "8080", "DEBUG": "true"}},
		{Name: "off", Enabled: false, Command: "uvx", Args: []string{"mcp-server-git"}},
	}
	if !reflect.DeepEqual(cfgs, want) {
		t.Errorf("got  %+v\nwant %+v", cfgs, want)
	}
	if cfgs[0].Kind() != TransportStdio {
		t.Errorf("kind = %q", cfgs[0].Kind())
	}
}

func TestParseCursorRemote(t *testing.T) {
	cfgs, err := ParseConfig([]byte(`{"mcpServers": {
	  "linear": {"url": "https://mcp.linear.app/mcp", "headers": {"Authorization": "Bearer lin_api_123456"}},
	  "legacy": {"url": "https://example.com/sse", "type": "sse"},
	  "windsurf": {"serverUrl": "https://example.com/mcp"}
	}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfgs) != 3 || cfgs[0].Kind() != TransportHTTP || cfgs[0].Headers["Authorization"] != "Bearer lin_api_123456" ||
		cfgs[1].Kind() != TransportSSE || cfgs[2].URL != "https://example.com/mcp" || cfgs[2].Kind() != TransportHTTP {
		t.Errorf("got %+v", cfgs)
	}
}

func TestParseBareAndVSCode(t *testing.T) {
	bare, err := ParseConfig([]byte(`{"time": {"command": "uvx", "args": ["mcp-server-time"]}}`))
	if err != nil || len(bare) != 1 || bare[0].Name != "time" || bare[0].Command != "uvx" {
		t.Errorf("bare: %+v, %v", bare, err)
	}
	// A bare config with a server that happens to be called "servers".
	named, err := ParseConfig([]byte(`{"servers": {"command": "srv"}}`))
	if err != nil || len(named) != 1 || named[0].Name != "servers" {
		t.Errorf("server called servers: %+v, %v", named, err)
	}
	vscode, err := ParseConfig([]byte(`{
	  "inputs": [{"type": "promptString", "id": "key", "password": true}],
	  "servers": {
	    "memory": {"type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "cwd": "/work"},
	    "remote": {"type": "http", "url": "http://localhost:3000/mcp", "headers": {"X-Key": "${input:key}"}},
	    "streamy": {"type": "streamable-http", "url": "http://localhost:3001/mcp"},
	    "underscored": {"transport": "streamable_http", "url": "http://localhost:3002/mcp"}
	  }
	}`))
	if err != nil {
		t.Fatal(err)
	}
	kinds := []string{}
	for _, c := range vscode {
		kinds = append(kinds, c.Name+":"+c.Kind())
	}
	if strings.Join(kinds, " ") != "memory:stdio remote:http streamy:http underscored:http" || vscode[0].Dir != "/work" {
		t.Errorf("vscode: %v %+v", kinds, vscode)
	}
	settings, err := ParseConfig([]byte(`{"editor.fontSize": 14, "mcp": {"servers": {"a": {"command": "x"}}}}`))
	if err != nil || len(settings) != 1 || settings[0].Name != "a" {
		t.Errorf("settings.json: %+v, %v", settings, err)
	}
}

func TestParseKeepsFileOrder(t *testing.T) {
	cfgs, err := ParseConfig([]byte(`{"mcpServers": {"zeta": {"command": "z"}, "alpha": {"command": "a"}, "mid": {"command": "m"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if cfgs[0].Name != "zeta" || cfgs[1].Name != "alpha" || cfgs[2].Name != "mid" {
		t.Errorf("order = %v %v %v", cfgs[0].Name, cfgs[1].Name, cfgs[2].Name)
	}
}

func TestParseErrorsNameServerAndField(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{``, "MCP config is empty"},
		{`[1, 2]`, "not a JSON object"},
		{`{"mcpServers": []}`, "the servers must be a JSON object"},
		{`{"mcpServers": {"a": "npx"}}`, `MCP server "a": expected an object with "command" or "url"`},
		{`{"mcpServers": {"a": {"args": ["x"]}}}`, `MCP server "a": give a "command"`},
		{`{"mcpServers": {"a": {"command": ["npx"]}}}`, `MCP server "a": "command" must be a string`},
		{`{"mcpServers": {"a": {"command": "npx", "args": "-y pkg"}}}`, `MCP server "a": "args" must be a list of strings`},
		{`{"mcpServers": {"a": {"command": "npx", "env": {"K": {"nested": 1}}}}}`, `MCP server "a": "env" must be an object of names to text values ("K" is not text)`},
		{`{"mcpServers": {"a": {"command": "npx", "env": ["K=V"]}}}`, `MCP server "a": "env" must be an object of names to text values`},
		{`{"mcpServers": {"a": {"url": "https://x", "headers": "Bearer x"}}}`, `MCP server "a": "headers" must be an object`},
		{`{"mcpServers": {"a": {"command": "npx", "disabled": "yes"}}}`, `MCP server "a": "disabled" must be true or false`},
		{`{"mcpServers": {"a": {"url": "https://x", "type": "websocket"}}}`, `MCP server "a": "type" is "websocket"`},
		{`{"mcpServers": {"a": {"url": "ftp://x"}}}`, `MCP server "a": "url" must be an http:// or https:// address`},
		{`{"mcpServers": {"a": {"command": "npx", "url": "https://x"}}}`, `MCP server "a": "url" is set on a stdio server`},
		{`{"mcpServers": {"a": {"type": "stdio", "url": "https://x"}}}`, `MCP server "a": "command" is missing`},
		{`{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}}`, `MCP server "a" is defined twice`},
		{`{"mcpServers": {"my server": {"command": "x"}}}`, `MCP server name "my server" may only contain letters, digits, '-' and '_'`},
		{`{"mcpServers": {"a__b": {"command": "x"}}}`, `contains "__"`},
		{`{"mcpServers": {"_a": {"command": "x"}}}`, `must start and end with a letter or digit`},
		{`{"mcpServers": {"` + strings.Repeat("a", 33) + `": {"command": "x"}}}`, `is longer than 32 characters`},
	} {
		_, err := ParseConfig([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s\n  err  = %v\n  want %q", tc.in, err, tc.want)
		}
	}
}

func TestRedacted(t *testing.T) {
	c := ServerConfig{
		Name: "gh", Enabled: true, Command: "npx", Args: []string{"-y", "server"},
		Env:     map[string]string{"GITHUB_TOKEN": "ghp_abcdef123456", "DEBUG": "1"},
		URL:     "https://user:hunter22@example.com/mcp?api_key=k-123456&region=eu",
		Headers: map[string]string{"Authorization": "Bearer tok_abcdef"},
	}
	r := c.Redacted()
	data, _ := json.Marshal(r)
	for _, secret := range []string{"ghp_abcdef123456", "hunter22", "k-123456", "tok_abcdef"} {
		if strings.Contains(string(data), secret) {
			t.Errorf("redacted config shows %q: %s", secret, data)
		}
	}
	if r.Env["DEBUG"] != Masked || r.Headers["Authorization"] != Masked || r.Command != "npx" || len(r.Args) != 2 {
		t.Errorf("redacted = %+v", r)
	}
	if !strings.Contains(r.URL, "example.com/mcp") || !strings.Contains(r.URL, "user:") {
		t.Errorf("redacted URL = %s", r.URL)
	}
	if c.Env["GITHUB_TOKEN"] != "ghp_abcdef123456" {
		t.Error("Redacted changed the original")
	}
	text := "auth failed for ghp_abcdef123456 with Bearer tok_abcdef at ?api_key=k-123456; DEBUG=1"
	got := scrub(text, c.secrets())
	if got != "auth failed for ••• with ••• at ?api_key=•••; DEBUG=1" {
		t.Errorf("scrub = %q", got)
	}
}

func TestToolNames(t *testing.T) {
	long := strings.Repeat("x", 80)
	names := ToolNames("github", []string{"create_issue", "get-file", "search.code", "search code", "search_code", long, "", "日本"})
	if names[0] != "mcp__github__create_issue" || names[1] != "mcp__github__get-file" || names[4] != "mcp__github__search_code" {
		t.Errorf("plain names changed: %v", names)
	}
	seen := map[string]bool{}
	for i, n := range names {
		if len(n) > MaxToolNameLen || sanitize(n) != n || !strings.HasPrefix(n, "mcp__github__") || seen[n] {
			t.Errorf("name %d = %q: too long, unsanitised, unprefixed or repeated", i, n)
		}
		seen[n] = true
	}
	// "search.code" and "search code" both sanitise to the plain name taken
	// by "search_code": each gets its own hash.
	if !strings.HasPrefix(names[2], "mcp__github__search_code_") || names[2] == names[3] {
		t.Errorf("colliding names: %q %q", names[2], names[3])
	}
	// Deterministic, whatever the order.
	again := ToolNames("github", []string{"日本", "", long, "search_code", "search code", "search.code", "get-file", "create_issue"})
	for i, n := range names {
		if again[len(again)-1-i] != n {
			t.Errorf("order changed name %d: %q vs %q", i, n, again[len(again)-1-i])
		}
	}
	if got := ToolNames("s", []string{"a.b"})[0]; got != "mcp__s__a_b" {
		t.Errorf("lone sanitised name = %q", got)
	}
}

func TestTailBuffer(t *testing.T) {
	b := newTailBuffer(16)
	b.Write([]byte("first line\nsecond line\nthird"))
	if got := b.String(); got != "…second line\nthird" && got != "…third" {
		t.Errorf("tail = %q", got)
	}
	b = newTailBuffer(8)
	b.Write([]byte("ééééé")) // 10 bytes: the cut falls inside a character
	if got := b.String(); got != "…éééé" {
		t.Errorf("tail = %q", got)
	}
	b = newTailBuffer(100)
	b.Write([]byte("  short \n"))
	if got := b.String(); got != "short" {
		t.Errorf("tail = %q", got)
	}
}

func TestScrubbingLogger(t *testing.T) {
	var buf strings.Builder
	l := scrubbingLogger(slog.New(slog.NewTextHandler(&buf, nil)), []string{"sk-secret-1"})
	l.With("url", "https://x/?k=sk-secret-1").WithGroup("g").Error("failed with sk-secret-1",
		"err", errors.New("401 for sk-secret-1"), slog.Group("req", "header", "Bearer sk-secret-1"), "n", 3)
	if strings.Contains(buf.String(), "sk-secret-1") || !strings.Contains(buf.String(), "n=3") {
		t.Errorf("log = %s", buf.String())
	}
}

func TestUnmask(t *testing.T) {
	saved := ServerConfig{Name: "s", URL: "https://u:pw@example.com/mcp?key=k1", Env: map[string]string{"TOKEN": "t0k3n", "MODE": "fast"},
		Headers: map[string]string{"Authorization": "Bearer abc"}}
	form := saved.Redacted()
	form.Env["MODE"] = "slow"             // changed
	delete(form.Headers, "Authorization") // removed
	got, err := form.Unmask(saved)
	if err != nil {
		t.Fatal(err)
	}
	if got.Env["TOKEN"] != "t0k3n" || got.Env["MODE"] != "slow" || len(got.Headers) != 0 || got.URL != saved.URL {
		t.Fatalf("Unmask = %+v", got)
	}
	form = saved.Redacted()
	form.URL = "https://example.com/other"
	if got, _ := form.Unmask(saved); got.URL != "https://example.com/other" {
		t.Fatalf("a changed URL must be kept as typed: %s", got.URL)
	}
	form.Env["NEW"] = Masked
	if _, err := form.Unmask(saved); err == nil || !strings.Contains(err.Error(), "NEW") {
		t.Fatalf("a masked value with nothing saved: %v", err)
	}
}

func TestResultSecrets(t *testing.T) {
	c := ServerConfig{Name: "x", Env: map[string]string{
		"GITHUB_TOKEN": "ghp_short1", "GREETING": "bonjour", "ROOT": "/home/me/projects2024",
		"UPSTREAM": "abcd1234efgh5678ijkl", "DATABASE_URL": "postgres://me:hunter22@db/x"},
		Headers: map[string]string{"Authorization": "Bearer tok-abcdef123456"}}
	got := c.resultSecrets()
	for _, want := range []string{"ghp_short1", "abcd1234efgh5678ijkl", "hunter22", "Bearer tok-abcdef123456", "tok-abcdef123456"} {
		if !slices.Contains(got, want) {
			t.Errorf("%q is not masked in results: %q", want, got)
		}
	}
	for _, plain := range []string{"bonjour", "/home/me/projects2024"} {
		if slices.Contains(got, plain) {
			t.Errorf("the plain setting %q would be masked in results", plain)
		}
	}
}

func TestOAuthClientSecretMaskedAndKept(t *testing.T) {
	saved := ServerConfig{Name: "linear", URL: "https://mcp.example/mcp", OAuthClientID: "my-client", OAuthClientSecret: "client-secret-987"}
	r := saved.Redacted()
	if r.OAuthClientSecret != Masked || r.OAuthClientID != "my-client" {
		t.Fatalf("redacted = %+v", r)
	}
	back, err := r.Unmask(saved)
	if err != nil || back.OAuthClientSecret != "client-secret-987" {
		t.Fatalf("unmask = %+v, %v", back, err)
	}
	if _, err := r.Unmask(ServerConfig{Name: "linear"}); err == nil {
		t.Fatal("a masked secret with nothing saved must be refused")
	}
	if got := scrub("token refused for client-secret-987", saved.secrets()); strings.Contains(got, "client-secret-987") {
		t.Fatalf("scrubbed = %q", got)
	}
	if saved.equal(ServerConfig{Name: "linear", URL: "https://mcp.example/mcp", OAuthClientID: "other"}) {
		t.Fatal("a changed client must restart the server")
	}
}
