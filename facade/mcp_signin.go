package facade

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"airlock/backend/chat"
	"airlock/backend/tools/mcp"
	"airlock/backend/uitext"
)

// Sign-in to remote MCP servers (OAuth): the system browser opens the
// authorization page, a loopback listener on 127.0.0.1 takes the redirect
// (the SDK checks state and PKCE), and the grant goes to the keychain (or
// the database, like API keys). A server starts with its saved grant,
// refreshed silently, and never opens a browser by itself: without one it
// is "signed out" and waits for Sign in.

// The sign-in states MCPServerInfo.Auth reports ("" when the server never
// asked for one).
const (
	AuthSignedOut = "signed_out"
	AuthSigningIn = "signing_in"
	AuthSignedIn  = "signed_in"
	AuthExpired   = "expired"
	AuthRefused   = "refused"
)

// signInTimeout bounds a sign-in, the person's time in the browser
// included.
const signInTimeout = 5 * time.Minute

type signIns struct {
	mu      sync.Mutex
	running map[string]context.CancelFunc
	refused map[string]uitext.Text // why the last sign-in failed
}

// oauthCapable: a Streamable HTTP server that does not send its own
// Authorization header.
func oauthCapable(cfg mcp.ServerConfig) bool {
	if cfg.Kind() != mcp.TransportHTTP {
		return false
	}
	for k := range cfg.Headers {
		if strings.EqualFold(k, "Authorization") {
			return false
		}
	}
	return true
}

// mcpOAuth is the Manager's Options.OAuth.
func (a *App) mcpOAuth(cfg mcp.ServerConfig) auth.OAuthHandler {
	if !oauthCapable(cfg) {
		return nil
	}
	return mcp.StartHandler(mcp.OAuthConfig{Saved: a.loadGrant(cfg.Name), Save: a.saveGrant(cfg.Name),
		ClientID: cfg.OAuthClientID, ClientSecret: cfg.OAuthClientSecret})
}

func (a *App) loadGrant(server string) *mcp.Grant {
	raw, err := a.store.MCPGrant(context.Background(), server)
	if err != nil || raw == "" {
		return nil
	}
	var g mcp.Grant
	if json.Unmarshal([]byte(raw), &g) != nil || g.Token == nil {
		return nil
	}
	return &g
}

func (a *App) saveGrant(server string) func(mcp.Grant) {
	return func(g mcp.Grant) {
		raw, err := json.Marshal(g)
		if err == nil {
			_ = a.store.SetMCPGrant(context.Background(), server, string(raw))
		}
	}
}

// authState says where a server is with signing in.
func (a *App) authState(st mcp.Status) (state string, why uitext.Text) {
	if !oauthCapable(st.Config) {
		return "", uitext.Text{}
	}
	a.signIns.mu.Lock()
	_, running := a.signIns.running[st.Name]
	refused := a.signIns.refused[st.Name]
	a.signIns.mu.Unlock()
	switch {
	case running:
		return AuthSigningIn, uitext.Text{}
	case !refused.IsZero():
		return AuthRefused, refused
	case st.State == mcp.StateFailed && strings.Contains(st.Reason, mcp.ErrSignInNeeded.Error()):
		return AuthSignedOut, uitext.Text{}
	case st.State == mcp.StateFailed && strings.Contains(st.Reason, mcp.ErrSignInExpired.Error()):
		return AuthExpired, uitext.Text{}
	}
	if a.store.HasMCPGrant(context.Background(), st.Name) {
		return AuthSignedIn, uitext.Text{}
	}
	return "", uitext.Text{}
}

func (a *App) mcpConfig(name string) (mcp.ServerConfig, bool) {
	for _, c := range a.mcpEnv {
		if c.Name == name {
			return c, true
		}
	}
	saved, _ := a.savedMCP(context.Background())
	for _, c := range saved {
		if c.Name == name {
			return c, true
		}
	}
	return mcp.ServerConfig{}, false
}

// SignInMCPServer starts signing in to a server: the browser opens, and
// the server restarts once the grant is saved. It returns at once; the
// server list (mcp:changed) follows: signing_in, then ready or refused.
func (a *App) SignInMCPServer(name string) (MCPServers, error) {
	cfg, ok := a.mcpConfig(name)
	if !ok {
		return a.ListMCPServers(), toAPI(refuse("not_found", chat.ErrNotFound, txtNoSuchMCP, "name", strconv.Quote(name)))
	}
	if !oauthCapable(cfg) {
		return a.ListMCPServers(), toAPI(refuse("no_sign_in", chat.ErrInvalid, txtNothingSignIn, "name", strconv.Quote(name)))
	}
	ctx, cancel := context.WithTimeout(context.Background(), signInTimeout)
	a.signIns.mu.Lock()
	if a.signIns.running == nil {
		a.signIns.running, a.signIns.refused = map[string]context.CancelFunc{}, map[string]uitext.Text{}
	}
	if _, busy := a.signIns.running[name]; busy {
		a.signIns.mu.Unlock()
		cancel()
		return a.ListMCPServers(), nil
	}
	a.signIns.running[name] = cancel
	delete(a.signIns.refused, name)
	a.signIns.mu.Unlock()
	go a.signIn(ctx, cancel, cfg)
	a.mcpChanged()
	return a.ListMCPServers(), nil
}

func (a *App) signIn(ctx context.Context, cancel context.CancelFunc, cfg mcp.ServerConfig) {
	defer cancel()
	err := a.runSignIn(ctx, cfg)
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		err = nil // the person gave up: nothing refused
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		err = txtSignInNoAnswer.Error("after", signInTimeout.String())
	}
	a.signIns.mu.Lock()
	delete(a.signIns.running, cfg.Name)
	if err != nil {
		a.signIns.refused[cfg.Name] = uitext.Of(err)
	}
	a.signIns.mu.Unlock()
	if err == nil && ctx.Err() == nil {
		rctx, rcancel := context.WithTimeout(context.Background(), 30*time.Second)
		_ = a.mcp.Restart(rctx, cfg.Name)
		rcancel()
	}
	a.mcpChanged()
}

func (a *App) runSignIn(ctx context.Context, cfg mcp.ServerConfig) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return (&uitext.Error{Text: txtSignInNoPort.With("reason", err.Error()), Err: err})
	}
	defer ln.Close()
	redirect := fmt.Sprintf("http://127.0.0.1:%d/callback", ln.Addr().(*net.TCPAddr).Port)
	return mcp.SignIn(ctx, cfg, mcp.OAuthConfig{
		Authorize: loopbackAuthorize(ln, func(u string) error { return openBrowser(u) }), RedirectURL: redirect,
		ClientID: cfg.OAuthClientID, ClientSecret: cfg.OAuthClientSecret, ClientName: "Airlock",
		Save: a.saveGrant(cfg.Name),
	})
}

// loopbackAuthorize opens the authorization page in the browser and waits
// for the redirect on ln; the page the browser lands on says what happened.
func loopbackAuthorize(ln net.Listener, open func(string) error) auth.AuthorizationCodeFetcher {
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		got := make(chan *auth.AuthorizationResult, 1)
		failed := make(chan error, 1)
		srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/callback" {
				http.NotFound(w, r)
				return
			}
			q := r.URL.Query()
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			if e := q.Get("error"); e != "" {
				fmt.Fprintf(w, "<p>The sign-in was refused (%s). You can close this tab.</p>", html.EscapeString(e))
				select {
				case failed <- txtSignInRefused.Error("reason", e):
				default:
				}
				return
			}
			fmt.Fprint(w, "<p>Signed in. You can close this tab and go back to Airlock.</p>")
			select {
			case got <- &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}:
			default:
			}
		})}
		go srv.Serve(ln) //nolint:errcheck // ends with Close below
		defer srv.Close()
		if err := open(args.URL); err != nil {
			return nil, txtSignInNoBrowser.Error()
		}
		select {
		case r := <-got:
			return r, nil
		case err := <-failed:
			return nil, err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// CancelMCPSignIn gives up a sign-in in progress (the browser may be closed).
func (a *App) CancelMCPSignIn(name string) MCPServers {
	a.signIns.mu.Lock()
	cancel := a.signIns.running[name]
	a.signIns.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	return a.ListMCPServers()
}

// SignOutMCPServer forgets a server's grant (keychain or database) and
// restarts it: it is signed out.
func (a *App) SignOutMCPServer(name string) (MCPServers, error) {
	a.CancelMCPSignIn(name)
	if err := a.store.SetMCPGrant(context.Background(), name, ""); err != nil {
		return a.ListMCPServers(), toAPI(err)
	}
	a.signIns.mu.Lock()
	delete(a.signIns.refused, name)
	a.signIns.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_ = a.mcp.Restart(ctx, name)
	return a.ListMCPServers(), nil
}

// The sentences of a sign-in that failed (shown on the server's row).
var (
	txtSignInNoAnswer  = uitext.Define("signin_no_answer", "no answer from the browser within {{after}}")
	txtSignInNoPort    = uitext.Define("signin_no_port", "no loopback port for the browser to come back to: {{reason}}")
	txtSignInRefused   = uitext.Define("signin_refused", "the authorization server refused: {{reason}}")
	txtSignInNoBrowser = uitext.Define("signin_no_browser", "no web browser could be opened for the sign-in page")
)

// codedText is t when coded (nil otherwise: the UI shows the English).
func codedText(t uitext.Text) *uitext.Text {
	if t.Code == "" {
		return nil
	}
	return &t
}
