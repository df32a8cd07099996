package mcp

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// Grant is what a sign-in leaves to keep: the tokens and what refreshing
// them needs. It is a secret as a whole (keep it in the keychain).
type Grant struct {
	Token        *oauth2.Token    `json:"token"`
	TokenURL     string           `json:"tokenUrl"`
	ClientID     string           `json:"clientId"`
	ClientSecret string           `json:"clientSecret,omitempty"`
	AuthStyle    oauth2.AuthStyle `json:"authStyle,omitempty"`
}

// OAuthConfig builds the OAuth handler of one Streamable HTTP server
// (NewOAuthHandler). Client registration follows the SDK's order: the
// client metadata document (ClientMetadataURL), the pre-registered
// ClientID/ClientSecret, then dynamic registration.
type OAuthConfig struct {
	// Authorize plays the browser: it gets the authorization URL and
	// returns the code and state the redirect brought back.
	Authorize auth.AuthorizationCodeFetcher
	// RedirectURL is where the authorization server sends the browser back
	// (a loopback URL for the app).
	RedirectURL string
	// ClientID and ClientSecret, when the server's authorization server
	// wants a pre-registered client.
	ClientID, ClientSecret string
	// ClientMetadataURL is an https client ID metadata document, if any.
	ClientMetadataURL string
	// ClientName is shown by the authorization server on its consent page.
	ClientName string
	// Saved is the grant kept from the last sign-in (nil: none).
	Saved *Grant
	// Save keeps a new or refreshed grant (nil: kept nowhere).
	Save func(Grant)
	// HTTPClient for discovery, registration and tokens (nil: default).
	HTTPClient *http.Client
}

// NewOAuthHandler makes the OAuth handler a Streamable HTTP transport
// calls on 401 (and on 403 asking for more scope: step-up). Tokens are
// refreshed silently while the refresh token lasts; every new token goes
// to Save.
func NewOAuthHandler(c OAuthConfig) (auth.OAuthHandler, error) {
	if c.Authorize == nil || c.RedirectURL == "" {
		return nil, errors.New("OAuth needs a way to open the authorization page and a redirect URL")
	}
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              c.RedirectURL,
		AuthorizationCodeFetcher: c.Authorize,
		RequestRefreshToken:      true,
		Client:                   c.HTTPClient,
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{
			Metadata: &oauthex.ClientRegistrationMetadata{
				RedirectURIs: []string{c.RedirectURL},
				ClientName:   c.ClientName,
				GrantTypes:   []string{"authorization_code", "refresh_token"},
			},
		},
	}
	if c.ClientMetadataURL != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: c.ClientMetadataURL}
	}
	if c.ClientID != "" {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: c.ClientID}
		if c.ClientSecret != "" {
			cfg.PreregisteredClient.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: c.ClientSecret}
		}
	}
	save := func(g Grant) {
		if c.Save != nil {
			c.Save(g)
		}
	}
	cfg.NewTokenSource = func(ctx context.Context, oc *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
		g := Grant{TokenURL: oc.Endpoint.TokenURL, ClientID: oc.ClientID, ClientSecret: oc.ClientSecret, AuthStyle: oc.Endpoint.AuthStyle}
		return newSavingSource(oc.TokenSource(context.WithoutCancel(ctx), tok), g, tok, save), nil
	}
	if g := c.Saved; g != nil && g.Token != nil {
		oc := &oauth2.Config{ClientID: g.ClientID, ClientSecret: g.ClientSecret, Endpoint: oauth2.Endpoint{TokenURL: g.TokenURL, AuthStyle: g.AuthStyle}}
		ctx := context.Background()
		if c.HTTPClient != nil {
			ctx = context.WithValue(ctx, oauth2.HTTPClient, c.HTTPClient)
		}
		cfg.InitialTokenSource = newSavingSource(oc.TokenSource(ctx, g.Token), *g, g.Token, save)
	}
	return auth.NewAuthorizationCodeHandler(cfg)
}

// savingSource hands out the tokens of src and saves each new one.
type savingSource struct {
	src  oauth2.TokenSource
	save func(Grant)

	mu    sync.Mutex
	grant Grant
	last  string
}

func newSavingSource(src oauth2.TokenSource, g Grant, first *oauth2.Token, save func(Grant)) *savingSource {
	s := &savingSource{src: src, save: save, grant: g}
	s.grant.Token = first
	s.last = first.AccessToken
	save(s.grant)
	return s
}

func (s *savingSource) Token() (*oauth2.Token, error) {
	tok, err := s.src.Token()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	changed := tok.AccessToken != s.last
	if changed {
		s.last = tok.AccessToken
		s.grant.Token = tok
	}
	g := s.grant
	s.mu.Unlock()
	if changed {
		s.save(g)
	}
	return tok, nil
}

// ErrSignInNeeded is a server that wants a sign-in Airlock does not have
// (none yet, or signed out): starting it never opens a browser.
var ErrSignInNeeded = txtSignInNeeded.Error()

// ErrSignInExpired is a server that refused the saved sign-in and whose
// refresh failed: the person signs in again.
var ErrSignInExpired = txtSignInExpired.Error()

// startHandler is the OAuth handler a server starts with: the saved
// grant's tokens (refreshed silently), and never a browser. A 401 it can't
// answer fails the start with ErrSignInNeeded or ErrSignInExpired.
type startHandler struct {
	inner auth.OAuthHandler // nil: no grant
}

// StartHandler is the OAuth handler for starting a server with a grant
// saved by SignIn (nil: none). c.Authorize is not used.
func StartHandler(c OAuthConfig) auth.OAuthHandler {
	if c.Saved == nil || c.Saved.Token == nil {
		return startHandler{}
	}
	c.Authorize = func(context.Context, *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		return nil, ErrSignInExpired
	}
	if c.RedirectURL == "" {
		c.RedirectURL = "http://127.0.0.1/callback"
	}
	h, err := NewOAuthHandler(c)
	if err != nil {
		return startHandler{}
	}
	return startHandler{inner: h}
}

func (h startHandler) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	if h.inner == nil {
		return nil, nil
	}
	return h.inner.TokenSource(ctx)
}

func (h startHandler) Authorize(_ context.Context, _ *http.Request, resp *http.Response) error {
	resp.Body.Close()
	if h.inner == nil {
		return ErrSignInNeeded
	}
	return ErrSignInExpired
}

// SignIn signs in to a Streamable HTTP server: it sends the server an
// initialize request, and when the answer is 401 runs the OAuth flow of
// c (discovery, registration, the browser step through c.Authorize, the
// token), whose grant goes to c.Save. A server that does not ask for a
// sign-in is said so. ctx bounds it all (cancel to give up).
func SignIn(ctx context.Context, cfg ServerConfig, c OAuthConfig) error {
	h, err := NewOAuthHandler(c)
	if err != nil {
		return err
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + legacyProtocolVersion +
		`","capabilities":{},"clientInfo":{"name":"airlock","version":"sign-in"}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.URL, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := headerClient(cfg.Headers).Do(req)
	if err != nil {
		return txtSignInUnreachable.Error("reason", scrub(err.Error(), cfg.secrets()))
	}
	if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		resp.Body.Close()
		return txtSignInNotAsked.Error()
	}
	if err := h.Authorize(ctx, req, resp); err != nil {
		return txtSignInFailed.Error("reason", scrub(err.Error(), cfg.secrets()))
	}
	return nil
}
