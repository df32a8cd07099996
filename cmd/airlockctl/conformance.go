package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"airlock/backend/tools"
	"airlock/backend/tools/mcp"
)

// conformanceTools is the tool each client scenario of the official MCP
// conformance suite (@modelcontextprotocol/conformance) expects a call to;
// scenarios not listed only connect and list the tools.
var conformanceTools = map[string]struct {
	tool string
	args string
}{
	"tools_call":                          {"add_numbers", `{"a":5,"b":3}`},
	"elicitation-sep1034-client-defaults": {"test_client_elicitation_defaults", `{}`},
	"sse-retry":                           {"test_reconnection", `{}`},
}

// conformanceAuthTool is what every auth/* scenario calls once signed in.
const conformanceAuthTool = "test-tool"

// runConformance is `airlockctl mcp-conformance URL`: the client side of
// the official MCP conformance suite, on Airlock's own MCP client (the
// Manager, its OAuth handler and its question plumbing), with the person's
// parts answered automatically: calls are approved, questions accepted
// with their defaults, and the browser step of a sign-in is played by
// following the authorization URL with redirects off and reading the code
// from Location. The suite names the scenario in MCP_CONFORMANCE_SCENARIO
// and, where it has some, passes credentials in MCP_CONFORMANCE_CONTEXT.
func runConformance(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp-conformance", flag.ContinueOnError)
	fs.SetOutput(stderr)
	timeout := fs.Duration("timeout", 25*time.Second, "give up after this long")
	verbose := fs.Bool("v", false, "log the MCP client's diagnostics to standard error")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: airlockctl mcp-conformance [-v] [--timeout D] URL\n\nScenario in MCP_CONFORMANCE_SCENARIO, credentials in MCP_CONFORMANCE_CONTEXT.")
		fs.PrintDefaults()
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return exitUsage
	}
	scenario := os.Getenv("MCP_CONFORMANCE_SCENARIO")
	if len(pos) != 1 || scenario == "" {
		fs.Usage()
		return exitUsage
	}
	var creds struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	if c := os.Getenv("MCP_CONFORMANCE_CONTEXT"); c != "" {
		if err := json.Unmarshal([]byte(c), &creds); err != nil {
			fmt.Fprintf(stderr, "airlockctl: MCP_CONFORMANCE_CONTEXT is not a JSON object: %v\n", err)
			return exitUsage
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	if err := conformanceScenario(ctx, pos[0], scenario, creds.ClientID, creds.ClientSecret, *verbose, stderr); err != nil {
		fmt.Fprintf(stderr, "airlockctl: scenario %s: %v\n", scenario, err)
		return exitUnreadable
	}
	fmt.Fprintf(stdout, "scenario %s: done\n", scenario)
	return exitOK
}

func conformanceScenario(ctx context.Context, serverURL, scenario, clientID, clientSecret string, verbose bool, stderr io.Writer) error {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	if verbose {
		logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	m := mcp.NewManager(mcp.Options{
		Logger:     logger,
		ClientName: "airlock-conformance", ClientVersion: "dev",
		// Every question is accepted as it stands: the SDK fills in the
		// schema's defaults, as the form in the app shows them.
		Elicit: func(context.Context, mcp.Question) (mcp.Answer, error) {
			return mcp.Answer{Action: "accept", Content: map[string]any{}}, nil
		},
		OAuth: func(mcp.ServerConfig) auth.OAuthHandler {
			h, err := mcp.NewOAuthHandler(mcp.OAuthConfig{
				Authorize:   followRedirect,
				RedirectURL: "http://127.0.0.1:3000/callback",
				ClientID:    clientID, ClientSecret: clientSecret,
				ClientName: "Airlock conformance",
			})
			if err != nil {
				fmt.Fprintf(stderr, "airlockctl: %v\n", err)
				return nil
			}
			return h
		},
	})
	defer m.Close()
	const name = "conformance"
	if err := m.Configure([]mcp.ServerConfig{{Name: name, URL: serverURL, Transport: mcp.TransportHTTP, Enabled: true}}); err != nil {
		return err
	}
	if err := m.Wait(ctx); err != nil {
		return err
	}
	st, _ := m.ServerStatus(name)
	if st.State != mcp.StateReady {
		return fmt.Errorf("the server did not start: %s", st.Reason)
	}
	call, ok := conformanceTools[scenario]
	if len(scenario) > 5 && scenario[:5] == "auth/" {
		call.tool, call.args, ok = conformanceAuthTool, `{}`, true
	}
	if !ok {
		return nil
	}
	for _, t := range m.Tools() {
		if t.Remote != call.tool {
			continue
		}
		ctx := tools.WithCall(ctx, tools.CallInfo{ID: "conformance", Tool: t.Name})
		out, err := t.Run(ctx, tools.Env{}, json.RawMessage(call.args))
		if err != nil {
			return err
		}
		if out.IsError {
			return fmt.Errorf("%s said: %s", call.tool, out.Text)
		}
		return nil
	}
	return fmt.Errorf("the server offers no tool %q", call.tool)
}

// followRedirect plays the browser against an authorization server that
// redirects at once (the suite's): it requests the authorization URL with
// redirects off and reads the code and state from Location.
func followRedirect(ctx context.Context, a *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.URL, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || loc.String() == "" {
		return nil, errors.New("the authorization server did not redirect back")
	}
	q := loc.Query()
	if e := q.Get("error"); e != "" {
		return nil, fmt.Errorf("the authorization server refused: %s", e)
	}
	return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
}
