package mcp

import (
	"context"
	"errors"
	"net/http"
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
