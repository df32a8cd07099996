package mcp

import (
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"airlock/backend/redact"
	"airlock/backend/uitext"
)

// Transport kinds a ServerConfig may name.
const (
	TransportStdio = "stdio" // a child process spoken to over stdin/stdout
	TransportHTTP  = "http"  // Streamable HTTP (MCP 2025-03-26 and later)
	TransportSSE   = "sse"   // the older HTTP+SSE transport (MCP 2024-11-05)
)

// Masked replaces every secret value in a redacted view.
const Masked = redact.Mask

// maxNameLen keeps room for the tool part in mcp__<server>__<tool> (64 in all).
const maxNameLen = 32

// ServerConfig describes one MCP server: a command to start (stdio) or an
// address to reach (Streamable HTTP, or legacy SSE).
type ServerConfig struct {
	Name    string `json:"name"`
	Enabled bool   `json:"enabled"`
	// Transport is TransportStdio, TransportHTTP or TransportSSE; empty means
	// http when only URL is set, stdio otherwise.
	Transport string `json:"transport,omitempty"`

	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"` // added to Airlock's own environment
	Dir     string            `json:"dir,omitempty"` // working folder; empty means Airlock's

	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// OAuthClientID and OAuthClientSecret: a client pre-registered with the
	// server's authorization server, for servers that refuse dynamic
	// registration (Streamable HTTP only; the secret is masked like headers).
	OAuthClientID     string `json:"oauthClientId,omitempty"`
	OAuthClientSecret string `json:"oauthClientSecret,omitempty"`

	// InitTimeout bounds the connection and the initialize handshake,
	// ListTimeout each tools/list; zero means the Manager's default.
	// (JSON carries them as nanoseconds, Go's encoding of a Duration.)
	InitTimeout time.Duration `json:"initTimeout,omitempty"`
	ListTimeout time.Duration `json:"listTimeout,omitempty"`
}

// Kind is the transport the config resolves to.
func (c ServerConfig) Kind() string {
	switch {
	case c.Transport != "":
		return c.Transport
	case c.URL != "" && c.Command == "":
		return TransportHTTP
	default:
		return TransportStdio
	}
}

// Validate checks one config; its errors name the server and the field.
func (c ServerConfig) Validate() error {
	if err := ValidateName(c.Name); err != nil {
		return err
	}
	fail := func(field string, t uitext.Template, pairs ...any) error {
		return txtCfgField.Error("server", strconv.Quote(c.Name), "field", strconv.Quote(field), "problem", t.With(pairs...))
	}
	switch c.Kind() {
	case TransportStdio:
		if strings.TrimSpace(c.Command) == "" {
			return fail("command", txtCfgNoCommand)
		}
		if c.URL != "" {
			return fail("url", txtCfgURLOnStdio)
		}
	case TransportHTTP, TransportSSE:
		if c.URL == "" {
			return fail("url", txtCfgNoURL, "kind", c.Kind())
		}
		u, err := url.Parse(c.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fail("url", txtCfgBadURL)
		}
		if c.Command != "" {
			return fail("command", txtCfgCommandOnHTTP, "kind", c.Kind())
		}
	default:
		return fail("type", txtCfgBadType, "type", strconv.Quote(c.Transport))
	}
	for k := range c.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return fail("env", txtCfgBadEnv, "name", strconv.Quote(k))
		}
	}
	for k := range c.Headers {
		if k == "" || strings.ContainsAny(k, " :\r\n") {
			return fail("headers", txtCfgBadHeader, "name", strconv.Quote(k))
		}
	}
	if c.InitTimeout < 0 || c.ListTimeout < 0 {
		return fail("timeout", txtCfgNegativeTimeout)
	}
	return nil
}

// ValidateName checks a server name: 1 to 32 letters, digits, '-' and '_',
// starting and ending with a letter or digit, without "__" (which separates
// the server from the tool in mcp__<server>__<tool>, so that no two servers
// can produce the same tool name).
func ValidateName(name string) error {
	bad := func(t uitext.Template, pairs ...any) error {
		return txtNameBad.Error("name", strconv.Quote(name), "why", t.With(pairs...))
	}
	switch {
	case name == "":
		return txtNameMissing.Error()
	case len(name) > maxNameLen:
		return bad(txtNameTooLong, "max", maxNameLen)
	case strings.Contains(name, "__"):
		return bad(txtNameDoubleUnderscore)
	case !isAlnum(name[0]) || !isAlnum(name[len(name)-1]):
		return bad(txtNameEnds)
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !isAlnum(c) && c != '-' && c != '_' {
			return bad(txtNameChars)
		}
	}
	return nil
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// ValidateAll checks every config and that names are unique.
func ValidateAll(cfgs []ServerConfig) error {
	seen := map[string]bool{}
	for _, c := range cfgs {
		if err := c.Validate(); err != nil {
			return err
		}
		if seen[c.Name] {
			return txtCfgTwice.Error("server", strconv.Quote(c.Name))
		}
		seen[c.Name] = true
	}
	return nil
}

// Redacted is a copy safe to log, show or export: every env value and
// header value is Masked, and so are a password in the URL and the values
// of its query (where services put API keys).
func (c ServerConfig) Redacted() ServerConfig {
	r := c
	r.Args = slices.Clone(c.Args)
	r.Env = maskValues(c.Env)
	r.Headers = maskValues(c.Headers)
	r.URL = redactURL(c.URL)
	if c.OAuthClientSecret != "" {
		r.OAuthClientSecret = Masked
	}
	return r
}

func maskValues(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k := range m {
		out[k] = Masked
	}
	return out
}

// redactURL masks the URL's password and query values (the shared rule of
// backend/redact, so a URL reads the same in a log, an error and a form).
func redactURL(raw string) string { return redact.URL(raw) }

// secrets lists the values Redacted hides, so they can also be scrubbed
// from text the server or the network stack produced (stderr, errors).
// Values shorter than 4 characters are left: scrubbing "1" or "on" would
// garble the text and hide nothing worth hiding.
func (c ServerConfig) secrets() []string {
	var out []string
	add := func(v string) {
		if len(v) >= 4 {
			out = append(out, v)
		}
	}
	for _, v := range c.Env {
		add(v)
	}
	for _, v := range c.Headers {
		add(v)
		// "Bearer <token>": the token alone may appear in messages too.
		if _, tok, ok := strings.Cut(v, " "); ok {
			add(tok)
		}
	}
	for _, v := range redact.Secrets(c.URL) {
		add(v)
	}
	add(c.OAuthClientSecret)
	// Longest first, so a secret containing another is replaced whole.
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return slices.Compact(out)
}

// resultSecrets are the secrets masked in a tool's results: every header
// value and URL secret (as for errors), but of the env only the values that
// are credentials (by their name, KEY, TOKEN, SECRET, PASSWORD..., or by
// their look, a long run of letters and digits, or a URL's password and
// query). A result shows what the tool did: masking a plain setting there
// (GREETING=bonjour, a folder) would garble it, where an error can afford
// to hide it.
func (c ServerConfig) resultSecrets() []string {
	plain := c
	plain.Env = nil
	out := plain.secrets()
	for k, v := range c.Env {
		if secretEnvName.MatchString(k) || looksLikeToken(v) {
			out = append(out, v)
		}
		out = append(out, redact.Secrets(v)...)
	}
	out = slices.DeleteFunc(out, func(v string) bool { return len(v) < 4 })
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return slices.Compact(out)
}

var secretEnvName = regexp.MustCompile(`(?i)key|token|secret|passw|pwd|auth|credential|private|session|cookie|signature|dsn|connection`)

// looksLikeToken: 16 characters or more, no spaces, letters and digits
// mixed, and not a path.
func looksLikeToken(v string) bool {
	if len(v) < 16 || strings.ContainsAny(v, " \t\n/\\") {
		return false
	}
	return strings.ContainsAny(v, "0123456789") && strings.IndexFunc(v, unicode.IsLetter) >= 0
}

// scrub replaces every secret in text by Masked, and masks what any URL
// in it carries.
func scrub(text string, secrets []string) string {
	return redact.Text(text, secrets...)
}

// equal says two configs would run the same server.
func (c ServerConfig) equal(o ServerConfig) bool {
	return c.Name == o.Name && c.Enabled == o.Enabled && c.Kind() == o.Kind() &&
		c.Command == o.Command && slices.Equal(c.Args, o.Args) && maps.Equal(c.Env, o.Env) &&
		c.Dir == o.Dir && c.URL == o.URL && maps.Equal(c.Headers, o.Headers) &&
		c.InitTimeout == o.InitTimeout && c.ListTimeout == o.ListTimeout &&
		c.OAuthClientID == o.OAuthClientID && c.OAuthClientSecret == o.OAuthClientSecret
}

// Unmask is c, edited in a form that showed saved redacted, with the values
// left Masked given back their saved values: editing a server never needs
// its secrets shown. A Masked value under a name saved has no value for is
// an error: there is nothing to keep.
func (c ServerConfig) Unmask(saved ServerConfig) (ServerConfig, error) {
	var err error
	if c.Env, err = unmaskValues(c.Name, "env", c.Env, saved.Env); err != nil {
		return c, err
	}
	if c.Headers, err = unmaskValues(c.Name, "headers", c.Headers, saved.Headers); err != nil {
		return c, err
	}
	if c.URL != "" && c.URL == redactURL(saved.URL) {
		c.URL = saved.URL
	}
	if c.OAuthClientSecret == Masked {
		if saved.OAuthClientSecret == "" {
			return c, fmt.Errorf("MCP server %q: the OAuth client secret has no saved value to keep; type it", c.Name)
		}
		c.OAuthClientSecret = saved.OAuthClientSecret
	}
	return c, nil
}

func unmaskValues(server, field string, edited, saved map[string]string) (map[string]string, error) {
	out := maps.Clone(edited)
	for k, v := range out {
		if v != Masked {
			continue
		}
		sv, ok := saved[k]
		if !ok {
			return nil, fmt.Errorf("MCP server %q: %q %s has no saved value to keep; type its value", server, field, k)
		}
		out[k] = sv
	}
	return out, nil
}
