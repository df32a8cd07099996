package facade

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"airlock/backend/tools"
	"airlock/backend/tools/mcp"
)

// oauthServer is an MCP server behind a small OAuth authorization server
// (protected resource metadata, metadata, dynamic registration, PKCE),
// all on loopback. refuse makes /authorize answer error=access_denied.
type oauthServer struct {
	*httptest.Server
	mu        sync.Mutex
	challenge string
	tokens    map[string]bool
	refuse    bool
}

func newOAuthServer(t *testing.T) *oauthServer {
	o := &oauthServer{tokens: map[string]bool{}}
	srv := sdk.NewServer(&sdk.Implementation{Name: "guarded", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "secret", Description: "Behind a sign-in.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "the treasure"}}}, nil
		})
	mcpHandler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	mux := http.NewServeMux()
	o.Server = httptest.NewServer(mux)
	t.Cleanup(o.Close)
	base := o.URL
	writeJSON := func(w http.ResponseWriter, v any) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(v)
	}
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		o.mu.Lock()
		ok := o.tokens[tok]
		o.mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+base+`/.well-known/oauth-protected-resource"`)
			http.Error(w, "sign in", http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	})
	mux.HandleFunc("/.well-known/oauth-protected-resource", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"resource": base + "/mcp", "authorization_servers": []string{base}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
			"registration_endpoint": base + "/register", "response_types_supported": []string{"code"},
			"code_challenge_methods_supported": []string{"S256"}, "grant_types_supported": []string{"authorization_code", "refresh_token"}})
	})
	mux.HandleFunc("/register", func(w http.ResponseWriter, r *http.Request) {
		var m map[string]any
		_ = json.NewDecoder(r.Body).Decode(&m)
		m["client_id"] = "client-1"
		w.WriteHeader(http.StatusCreated)
		writeJSON(w, m)
	})
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		back, _ := url.Parse(q.Get("redirect_uri"))
		v := url.Values{"state": {q.Get("state")}}
		o.mu.Lock()
		o.challenge = q.Get("code_challenge")
		refuse := o.refuse
		o.mu.Unlock()
		if refuse {
			v.Set("error", "access_denied")
		} else {
			v.Set("code", "code-1")
		}
		back.RawQuery = v.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		sum := sha256.Sum256([]byte(r.Form.Get("code_verifier")))
		o.mu.Lock()
		defer o.mu.Unlock()
		if r.Form.Get("code") != "code-1" || base64.RawURLEncoding.EncodeToString(sum[:]) != o.challenge {
			http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
			return
		}
		o.tokens["access-token-xyz"] = true
		writeJSON(w, map[string]any{"access_token": "access-token-xyz", "token_type": "Bearer", "refresh_token": "refresh-token-abc", "expires_in": 3600})
	})
	return o
}

// browser plays the person's browser: it follows the authorization page's
// redirects, to Airlock's loopback listener.
func playBrowser(t *testing.T) func(string) error {
	return func(u string) error {
		go func() {
			resp, err := http.Get(u)
			if err == nil {
				resp.Body.Close()
			}
		}()
		return nil
	}
}

func waitAuth(t *testing.T, a *App, name, want string) MCPServerInfo {
	t.Helper()
	return waitServer(t, a, name, "auth "+want, func(s MCPServerInfo) bool { return s.Auth == want })
}

func TestSignInToAnMCPServer(t *testing.T) {
	o := newOAuthServer(t)
	a := testApp(t)
	old := openBrowser
	opened := 0
	openBrowser = func(u string) error { opened++; return playBrowser(t)(u) }
	defer func() { openBrowser = old }()

	// Added: it asks for a sign-in; starting it opens no browser.
	if _, err := a.SaveMCPServer("", mcp.ServerConfig{Name: "guarded", Enabled: true, URL: o.URL + "/mcp"}); err != nil {
		t.Fatal(err)
	}
	st := waitAuth(t, a, "guarded", AuthSignedOut)
	if st.State != mcp.StateFailed || opened != 0 {
		t.Fatalf("before sign-in: %+v, browser opened %d times", st, opened)
	}

	// Sign in: browser, loopback, PKCE-checked token, restart, ready.
	if _, err := a.SignInMCPServer("guarded"); err != nil {
		t.Fatal(err)
	}
	waitAuth(t, a, "guarded", AuthSignedIn)
	st = waitState(t, a, "guarded", mcp.StateReady)
	if st.Tools != 1 || opened != 1 {
		t.Fatalf("after sign-in: %+v, browser opened %d times", st, opened)
	}
	var ran bool
	for _, tool := range a.mcp.Tools() {
		if tool.Remote == "secret" {
			out, err := tool.Run(context.Background(), tools.Env{}, []byte(`{}`))
			if err != nil || out.Text != "the treasure" {
				t.Fatalf("call: %+v %v", out, err)
			}
			ran = true
		}
	}
	if !ran {
		t.Fatal("the signed-in server's tool is not offered")
	}
	// The tokens are kept (the test store has no keychain: the database), never shown.
	if g, _ := a.store.MCPGrant(a.ctx, "guarded"); !strings.Contains(g, "refresh-token-abc") {
		t.Fatalf("grant = %q", g)
	}
	raw, _ := json.Marshal(a.ListMCPServers())
	if strings.Contains(string(raw), "access-token-xyz") || strings.Contains(string(raw), "refresh-token-abc") {
		t.Fatalf("the UI got a token: %s", raw)
	}

	// A restart (Airlock's next start) uses the saved grant: no browser.
	if _, err := a.RestartMCPServer("guarded"); err != nil || opened != 1 {
		t.Fatalf("restart: %v, browser opened %d times", err, opened)
	}

	// Revoked on the server's side: "expired".
	o.mu.Lock()
	o.tokens = map[string]bool{}
	o.mu.Unlock()
	_, _ = a.RestartMCPServer("guarded")
	waitAuth(t, a, "guarded", AuthExpired)

	// Sign out forgets the grant.
	if _, err := a.SignOutMCPServer("guarded"); err != nil {
		t.Fatal(err)
	}
	waitAuth(t, a, "guarded", AuthSignedOut)
	if g, _ := a.store.MCPGrant(a.ctx, "guarded"); g != "" || a.store.HasMCPGrant(a.ctx, "guarded") {
		t.Fatalf("signed out, grant = %q", g)
	}

	// Refused by the authorization server: "refused", with why.
	o.mu.Lock()
	o.refuse = true
	o.mu.Unlock()
	if _, err := a.SignInMCPServer("guarded"); err != nil {
		t.Fatal(err)
	}
	st = waitAuth(t, a, "guarded", AuthRefused)
	if !strings.Contains(st.AuthError, "access_denied") {
		t.Fatalf("refused: %+v", st)
	}
}
