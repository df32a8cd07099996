package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ParseConfig reads the mcpServers JSON other clients use, in the order the
// file lists the servers:
//
//   - Claude Desktop, Cursor, Cline, Windsurf: {"mcpServers": {"name": {...}}}
//   - VS Code: {"servers": {"name": {...}}} (and {"mcp": {"servers": ...}} from settings.json)
//   - the bare inner object: {"name": {...}}
//
// Each server has "command", "args", "env" and "cwd" (stdio), or "url" (also
// "serverUrl") and "headers"; "type" (or "transport") is stdio, http,
// streamable-http or sse; "disabled": true or "enabled": false turns it off.
// Other fields ("inputs", "envFile", "autoApprove", ...) are ignored. The
// servers are validated (names, fields, duplicates); an error names the
// server and the field.
func ParseConfig(data []byte) ([]ServerConfig, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, errors.New("MCP config is empty: expected {\"mcpServers\": {...}}")
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("MCP config is not a JSON object: %w", err)
	}
	servers := data
	switch {
	case top["mcpServers"] != nil:
		servers = top["mcpServers"]
	case isServerMap(top["servers"]):
		servers = top["servers"]
	case top["mcp"] != nil:
		var inner map[string]json.RawMessage
		if json.Unmarshal(top["mcp"], &inner) == nil && isServerMap(inner["servers"]) {
			servers = inner["servers"]
		}
	}
	cfgs, err := parseServers(servers)
	if err != nil {
		return nil, err
	}
	return cfgs, ValidateAll(cfgs)
}

// isServerMap tells {"servers": {"a": {...}}} (VS Code) from a bare config
// with one server that happens to be called "servers".
func isServerMap(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	if raw == nil || json.Unmarshal(raw, &m) != nil {
		return false
	}
	for _, key := range []string{"command", "url", "args", "type"} {
		if m[key] != nil {
			return false
		}
	}
	return true
}

// parseServers reads the name → entry object, keeping the file's order and
// catching names given twice (which encoding/json would silently merge).
func parseServers(raw json.RawMessage) ([]ServerConfig, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New(`MCP config: the servers must be a JSON object of name → {"command": ...} or {"url": ...}`)
	}
	var out []ServerConfig
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("MCP config: %w", err)
		}
		name := tok.(string) // object keys are always strings
		var entry json.RawMessage
		if err := dec.Decode(&entry); err != nil {
			return nil, fmt.Errorf("MCP server %q: %w", name, err)
		}
		if seen[name] {
			return nil, fmt.Errorf("MCP server %q is defined twice", name)
		}
		seen[name] = true
		cfg, err := parseEntry(name, entry)
		if err != nil {
			return nil, err
		}
		out = append(out, cfg)
	}
	return out, nil
}

func parseEntry(name string, raw json.RawMessage) (ServerConfig, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return ServerConfig{}, fmt.Errorf(`MCP server %q: expected an object with "command" or "url"`, name)
	}
	r := entryReader{server: name, fields: fields}
	cfg := ServerConfig{Name: name, Enabled: true}
	cfg.Command = r.text("command")
	cfg.Args = r.list("args")
	cfg.Env = r.textMap("env")
	cfg.Dir = r.text("cwd")
	cfg.URL = r.text("url")
	if cfg.URL == "" {
		cfg.URL = r.text("serverUrl") // Windsurf's spelling
	}
	cfg.Headers = r.textMap("headers")
	kind := r.text("type")
	if kind == "" {
		kind = r.text("transport")
	}
	if r.flag("disabled", false) || !r.flag("enabled", true) {
		cfg.Enabled = false
	}
	if r.err != nil {
		return ServerConfig{}, r.err
	}
	if kind != "" {
		t, ok := transportAliases[strings.ToLower(strings.ReplaceAll(kind, "_", "-"))]
		if !ok {
			return ServerConfig{}, fmt.Errorf("MCP server %q: \"type\" is %q; use stdio, http (Streamable HTTP) or sse", name, kind)
		}
		cfg.Transport = t
	}
	if cfg.Command == "" && cfg.URL == "" {
		return ServerConfig{}, fmt.Errorf(`MCP server %q: give a "command" (to start a local server) or a "url" (to reach a remote one)`, name)
	}
	return cfg, nil
}

// entryReader reads one server's fields, keeping the first error, which
// names the server and the field.
type entryReader struct {
	server string
	fields map[string]json.RawMessage
	err    error
}

func (r *entryReader) get(field string, dst any, want string) bool {
	v, ok := r.fields[field]
	if !ok || isJSONNull(v) || r.err != nil {
		return false
	}
	if json.Unmarshal(v, dst) != nil {
		r.fail(field, want)
		return false
	}
	return true
}

func (r *entryReader) fail(field, want string) {
	if r.err == nil {
		r.err = fmt.Errorf("MCP server %q: %q must be %s", r.server, field, want)
	}
}

func (r *entryReader) text(field string) (s string) {
	r.get(field, &s, "a string")
	return s
}

func (r *entryReader) list(field string) (l []string) {
	r.get(field, &l, "a list of strings")
	return l
}

func (r *entryReader) flag(field string, absent bool) bool {
	b := absent
	r.get(field, &b, "true or false")
	return b
}

// textMap reads {"KEY": "value"}; numbers and booleans are taken as their
// text, since hand-written configs often say "PORT": 8080.
func (r *entryReader) textMap(field string) map[string]string {
	var m map[string]any
	if !r.get(field, &m, "an object of names to text values") {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		switch v := v.(type) {
		case string:
			out[k] = v
		case float64:
			out[k] = strconv.FormatFloat(v, 'f', -1, 64)
		case bool:
			out[k] = strconv.FormatBool(v)
		default:
			r.fail(field, fmt.Sprintf("an object of names to text values (%q is not text)", k))
			return nil
		}
	}
	return out
}

var transportAliases = map[string]string{
	"stdio": TransportStdio, "local": TransportStdio,
	"http": TransportHTTP, "streamable-http": TransportHTTP, "streamablehttp": TransportHTTP, "streamable": TransportHTTP,
	"sse": TransportSSE,
}

func isJSONNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }
