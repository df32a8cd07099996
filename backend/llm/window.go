package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"airlock/backend/chat"
)

// Window is what is known of a model's context window (see chat.Window).
type Window = chat.Window

// Discovery bounds: one request, the whole discovery, and the bodies read
// (OpenRouter's model list is about 1 MB; every other answer is small).
// Variables so tests can shorten them.
var (
	ProbeTimeout          = 4 * time.Second
	DiscoverTimeout       = 12 * time.Second
	maxProbeBody    int64 = 1 << 20
	maxListBody     int64 = 8 << 20
)

// errAbsent: the server has no such endpoint (404 and the like) or did not
// answer it readably; the next kind of server is tried.
var errAbsent = errors.New("no such endpoint")

// ErrUnreachable: Window could not reach the server at all (refused, no
// such host, no answer in time). The Window returned is the table's, if
// any; keep it only for the moment and ask again later.
var ErrUnreachable = errors.New("the server could not be reached")

// errNoAnswer is a probe that got no HTTP answer.
var errNoAnswer = errors.New("no answer")

// Window finds the context window of the client's model: the server's own
// word where it gives one (the OpenAI model list's extra fields for vLLM,
// llama.cpp, OpenRouter, Groq, Mistral and Together; Ollama's /api/show and
// /api/ps; LM Studio's REST model list; llama.cpp's /props), else the table
// of well-known hosted models. Source "" means nothing is known (Note says
// what to do). Each request is bounded by ProbeTimeout, the whole by
// DiscoverTimeout, and bodies are capped. The error is ErrUnreachable when
// the server gave no answer at all (the table's Window comes with it), or
// the caller's context ending. Nothing returned carries the API key or URL
// passwords.
func (c *Client) Window(ctx context.Context) (Window, error) {
	ctx, cancel := context.WithTimeout(ctx, DiscoverTimeout)
	defer cancel()
	model := c.cfg.Model
	if model == "" {
		return Window{Note: "No model is chosen, so its context window cannot be found."}, nil
	}
	if c.ant != nil {
		return c.anthropicWindow(model), nil
	}
	w, found, reached := c.fromServer(ctx, model)
	if err := ctx.Err(); err != nil && !found && errors.Is(context.Cause(ctx), context.Canceled) {
		return Window{}, err
	}
	if !reached {
		t, _ := TableWindow(model)
		t.Note = fmt.Sprintf("Airlock could not reach %s to ask about %s's context window; it asks again at the next answer or when you press Re-detect.", c.shown, model)
		return t, ErrUnreachable
	}
	if t, ok := TableWindow(model); ok {
		if !found {
			return t, nil
		}
		if w.MaxOutput == 0 {
			w.MaxOutput = t.MaxOutput
		}
	}
	if !found {
		w.Note = fmt.Sprintf("%s did not say how large %s's context window is, and it is not among the models Airlock knows. "+
			"Set the window in Settings → Providers (the model's card or the server's documentation gives it).", c.shown, model)
	}
	return w, nil
}

// fromServer asks the server, one kind after another, until one answers;
// reached is false when its model list got no answer at all (the others
// are not tried then).
func (c *Client) fromServer(ctx context.Context, model string) (w Window, found, reached bool) {
	entry, err := c.listEntry(ctx, model)
	if errors.Is(err, errNoAnswer) {
		return Window{}, false, false
	}
	if w, ok := entry.window(c.cfg.BaseURL); ok && w.Source != sourceLlamaCpp {
		return w, true, true
	}
	if hostedHost(c.cfg.BaseURL) {
		return Window{}, false, true
	}
	if err == nil && entry.OwnedBy == "llamacpp" || entry.Meta != nil {
		w, found = c.llamaCpp(ctx, entry)
		return w, found, true
	}
	for _, kind := range []func(context.Context, string) (Window, bool){c.ollama, c.lmStudio} {
		if w, ok := kind(ctx, model); ok {
			return w, true, true
		}
	}
	w, found = c.llamaCpp(ctx, entry)
	return w, found, true
}

// root is the server's address without the OpenAI path (/v1, /api/v1):
// where Ollama's, LM Studio's and llama.cpp's own endpoints live.
func (c *Client) root() string {
	base := c.cfg.BaseURL
	for _, suffix := range []string{"/api/v1", "/v1"} {
		if strings.HasSuffix(base, suffix) {
			return strings.TrimSuffix(base, suffix)
		}
	}
	return base
}

// probe sends one bounded request and decodes a JSON answer into out. A
// status other than 2xx, or an unreadable body, is errAbsent.
func (c *Client) probe(ctx context.Context, method, address string, body any, limit int64, out any) error {
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, address, rd)
	if err != nil {
		return errAbsent
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return errNoAnswer
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
		return errAbsent
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil || int64(len(data)) > limit {
		return errAbsent
	}
	if json.Unmarshal(data, out) != nil {
		return errAbsent
	}
	return nil
}

// hostedHost says the base URL is a hosted API that has none of the local
// servers' endpoints: they are not probed there.
func hostedHost(base string) bool {
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	host := strings.ToLower(u.Hostname())
	for _, h := range []string{"openai.com", "deepseek.com", "anthropic.com", "googleapis.com", "openrouter.ai", "mistral.ai",
		"groq.com", "together.xyz", "together.ai", "x.ai", "moonshot.cn", "moonshot.ai", "bigmodel.cn", "z.ai",
		"minimax.io", "minimaxi.com", "aliyuncs.com", "fireworks.ai", "deepinfra.com", "cerebras.ai", "azure.com"} {
		if host == h || strings.HasSuffix(host, "."+h) {
			return true
		}
	}
	return false
}

// positive keeps a server's number when it is a plausible window.
func positive(n int) int {
	if n < chat.MinWindow || n > chat.MaxWindow {
		return 0
	}
	return n
}

// runsWith fills Tokens from the window the model runs with (loaded) and
// the model's own (max), and says so when the first is the smaller.
func runsWith(w Window, server, model, raise string) Window {
	switch {
	case w.Loaded > 0:
		w.Tokens = w.Loaded
	default:
		w.Tokens = w.ModelMax
	}
	if w.Loaded > 0 && w.ModelMax > w.Loaded {
		w.Note = fmt.Sprintf("%s runs %s with a %d-token context window, though the model can take %d. %s",
			server, model, w.Loaded, w.ModelMax, raise)
	}
	return w
}
