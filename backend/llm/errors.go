package llm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"airlock/backend/redact"
	"airlock/backend/uitext"
)

// ErrorKind is a stable, machine-readable failure class (the UI keys on it).
type ErrorKind string

const (
	KindUnauthorized ErrorKind = "unauthorized"  // HTTP 401/403
	KindNotFound     ErrorKind = "not_found"     // HTTP 404, e.g. unknown model
	KindRateLimited  ErrorKind = "rate_limited"  // HTTP 429
	KindServer       ErrorKind = "server"        // HTTP 5xx, or an error reported mid-stream
	KindBadRequest   ErrorKind = "bad_request"   // other HTTP 4xx, or a request we could not build
	KindConnection   ErrorKind = "connection"    // refused, DNS, reset… before any response
	KindTimeout      ErrorKind = "timeout"       // connect or idle timeout
	KindStreamBroken ErrorKind = "stream_broken" // stream cut short or unreadable
	KindCanceled     ErrorKind = "canceled"      // the caller's context ended (Stop)
	// KindToolsUnsupported: a request with tools was refused because the
	// model or server does not take native tool calls. The same request
	// without tools (text tool calls) may well work.
	KindToolsUnsupported ErrorKind = "tools_unsupported"
	// KindContextOverflow: the request did not fit the model's context
	// window. Retrying the same request fails the same way; a shorter one
	// (compacted) may pass. Error.Overflow holds the numbers the server
	// gave.
	KindContextOverflow ErrorKind = "context_overflow"
)

// Error is every failure Stream and ListModels return.
type Error struct {
	Kind       ErrorKind
	StatusCode int           // HTTP status, when the server answered with one
	Message    string        // a sentence for people, with the server's own text when it gave one
	RetryAfter time.Duration // from Retry-After on 429/503, else 0
	Said       string        // the server's own words, when it gave some (tools refusals, overflows)
	Overflow   Overflow      // what a KindContextOverflow error stated in numbers
	Err        error         // the underlying cause

	overloaded bool // the server said it is overloaded (Anthropic's 529 or overloaded_error): worth asking again

	text *uitext.Text // Message coded for the UI's language (see say)
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

// Code is the Kind as a string, for chat.Message.ErrorCode.
func (e *Error) Code() string { return string(e.Kind) }

type op int

const (
	opChat      op = iota
	opChatTools    // a chat request that offers tools
	opModels
)

// classify turns whatever go-openai or net/http returned into an *Error.
func (c *Client) classify(ctx context.Context, w *watch, err error, what op) *Error {
	if perr := w.parent.Err(); perr != nil {
		if errors.Is(perr, context.DeadlineExceeded) {
			return (&Error{Kind: KindTimeout, Err: perr}).say(txtTimeout.With())
		}
		return (&Error{Kind: KindCanceled, Err: perr}).say(txtStopped.With())
	}
	switch context.Cause(ctx) {
	case errConnectTimeout:
		return (&Error{Kind: KindTimeout, Err: context.DeadlineExceeded}).say(txtNoResponse.With("server", c.shown, "after", c.cfg.ConnectTimeout.String()))
	case errIdleTimeout:
		return (&Error{Kind: KindTimeout, Err: context.DeadlineExceeded}).say(txtIdle.With("after", c.cfg.IdleTimeout.String()))
	}

	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case what == opChatTools && toolsRefused(err):
		// go-openai's own check, before sending: e.g. GPT-6 takes tools on
		// the Responses API only.
		return (&Error{Kind: KindToolsUnsupported, Err: err, Said: err.Error()}).say(then(sentence(txtNoToolsHere.With(), err.Error(), uitext.Text{}), txtToolsHint.With()))
	case errors.As(err, &reqErr): // before APIError: it may wrap an empty one
		return c.httpError(reqErr.HTTPStatusCode, bodyText(reqErr.Body), w.header, err, what)
	case errors.As(err, &apiErr) && apiErr.HTTPStatusCode == 0:
		// An error event inside a 200 stream.
		return midStreamError(apiErr.Message, err, what)
	case errors.As(err, &apiErr):
		return c.httpError(apiErr.HTTPStatusCode, apiErr.Message, w.header, err, what)
	case !w.sent.Load():
		return (&Error{Kind: KindBadRequest, Err: err}).say(sentence(txtCannotBuild.With(), err.Error(), uitext.Text{}))
	case !w.headers.Load():
		return c.connError(err)
	case what == opModels:
		return (&Error{Kind: KindServer, Err: err}).say(txtBadModelList.With("server", c.shown, "reason", clip(err.Error(), 120)))
	default:
		return (&Error{Kind: KindStreamBroken, Err: err}).say(txtStreamBroken.With("reason", clip(rootCause(err).Error(), 120)))
	}
}

func (c *Client) httpError(status int, text string, h http.Header, err error, what op) *Error {
	e := &Error{StatusCode: status, Err: err}
	said := func(what uitext.Template, hint uitext.Text, pairs ...any) uitext.Text {
		return sentence(withStatus(what.With(pairs...), status), text, hint)
	}
	none := uitext.Text{}
	var t uitext.Text
	switch {
	case what == opChatTools && status >= 400 && refusesTools(text):
		// Before the generic cases: OpenRouter says it with a 404,
		// llama.cpp with a 500.
		e.Kind, e.Said = KindToolsUnsupported, text
		return e.say(then(said(txtNoTools, none), txtToolsHint.With()))
	case status >= 400 && status != http.StatusTooManyRequests && status != http.StatusUnauthorized && status != http.StatusForbidden && isOverflow(text, err):
		o, _ := ParseOverflow(text)
		return overflowError(o, status, text, err)
	case status == http.StatusUnauthorized:
		e.Kind = KindUnauthorized
		t = said(txtBadKey, txtCheckKey.With())
	case status == http.StatusForbidden:
		e.Kind = KindUnauthorized
		t = said(txtNoAccess, txtCheckKeyPerms.With())
	case status == http.StatusNotFound && what == opModels:
		e.Kind = KindNotFound
		t = then(said(txtNoModelList, none, "server", c.shown), txtCheckV1.With())
	case status == http.StatusNotFound:
		e.Kind = KindNotFound
		t = then(said(txtNoModel, none, "model", strconv.Quote(c.cfg.Model)), txtCheckModel.With())
	case status == http.StatusTooManyRequests:
		e.Kind = KindRateLimited
		e.RetryAfter = retryAfter(h)
		t = said(txtRateLimited, txtWait.With())
	case status >= 500:
		e.Kind = KindServer
		e.RetryAfter = retryAfter(h)
		t = said(txtServerError, txtTryLater.With())
	default:
		e.Kind = KindBadRequest
		t = said(txtRejected, none)
	}
	if e.RetryAfter > 0 {
		t = then(t, txtRetryAfter.With("after", humanSeconds(e.RetryAfter)))
	}
	return e.say(t)
}

func (c *Client) connError(err error) *Error {
	e := &Error{Kind: KindConnection, Err: err}
	var dnsErr *net.DNSError
	switch {
	case !strings.HasPrefix(c.cfg.BaseURL, "http://") && !strings.HasPrefix(c.cfg.BaseURL, "https://"):
		e.say(txtConnScheme.With("server", c.shown))
	case errors.Is(err, syscall.ECONNREFUSED):
		e.say(txtConnRefused.With("server", c.shown))
	case errors.As(err, &dnsErr):
		e.say(txtConnNoHost.With("server", c.shown, "host", strconv.Quote(dnsErr.Name)))
	case errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF):
		e.say(txtConnClosed.With("server", c.shown))
	default:
		e.say(txtConnOther.With("server", c.shown, "reason", strings.TrimSuffix(rootCause(err).Error(), ".")))
	}
	return e
}

// midStreamError is an error the server reported inside a 200 stream.
func midStreamError(msg string, err error, what op) *Error {
	if what == opChatTools && refusesTools(msg) {
		return (&Error{Kind: KindToolsUnsupported, Err: err, Said: msg}).say(then(sentence(txtNoTools.With(), msg, uitext.Text{}), txtToolsHint.With()))
	}
	if isOverflow(msg, err) {
		o, _ := ParseOverflow(msg)
		return overflowError(o, 0, msg, err)
	}
	return (&Error{Kind: KindServer, Err: err}).say(sentence(txtMidStream.With(), msg, uitext.Text{}))
}

// toolRefusals are the ways servers say they will not take tools. Matched
// only against errors of requests that offered tools.
var toolRefusals = regexp.MustCompile(`(?i)` + strings.Join([]string{
	// Ollama ("… does not support tools"), DeepSeek ("deepseek-reasoner
	// does not support Function Calling"), xAI ("The model does not support
	// tool use or function calling …")
	`does not support (tools|tool use|tool calling|tool calls|function calling|function calls|functions)\b`,
	// OpenAI ("tools is not supported in this model", "'tools' is not
	// supported with this model"), Groq ("'tool calling' is not supported
	// with this model", in backquotes), DeepInfra ("Tool calling is not
	// supported for model: …"), Gemini ("Function calling is not enabled
	// for models/gemma-3-27b-it"), Azure ("Functions are not supported for
	// this API version or this model version"), one-api ("The tool call is
	// not supported")
	`\b(tools|tool use|tool calling|tool calls?|function calling|function calls?|functions)\W{0,2} (is|are) not (supported|enabled|available)`,
	// llama.cpp without --jinja, and builds that cannot stream tool calls
	`tools param requires --jinja`, `cannot use tools with stream`, `unsupported param: tools\b`,
	// vLLM without --enable-auto-tool-choice --tool-call-parser
	`tool choice requires --enable-auto-tool-choice`,
	// OpenRouter, when no provider of the model takes tools
	`no endpoints found that support (tool use|the provided 'tool_choice')`,
}, "|"))

func refusesTools(text string) bool { return toolRefusals.MatchString(text) }

// sentence joins our prefix, the server's text and a hint, punctuated.

// bodyText digs a human message out of an error body go-openai could not
// parse: {"error":"…"}, {"message":"…"}, {"detail":"…"}, any of them in a
// one-element array (Gemini's OpenAI layer), or short plain text.
func bodyText(body []byte) string {
	var list []json.RawMessage
	if json.Unmarshal(body, &list) == nil && len(list) > 0 {
		body = list[0]
	}
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  any             `json:"detail"`
	}
	if json.Unmarshal(body, &v) == nil {
		var s string
		var obj struct {
			Message string `json:"message"`
		}
		switch {
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			return s
		case json.Unmarshal(v.Error, &obj) == nil && obj.Message != "":
			return obj.Message
		case v.Message != "":
			return v.Message
		case v.Detail != nil:
			if d, ok := v.Detail.(string); ok {
				return d
			}
			b, _ := json.Marshal(v.Detail)
			return string(b)
		}
		return ""
	}
	t := strings.TrimSpace(string(body))
	if strings.HasPrefix(t, "<") {
		return "" // an HTML error page says nothing useful in one line
	}
	return clip(t, 200)
}

func retryAfter(h http.Header) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t).Round(time.Second); d > 0 {
			return d
		}
	}
	return 0
}

func humanSeconds(d time.Duration) uitext.Text {
	n := int(d.Round(time.Second) / time.Second)
	if n == 1 {
		return txtSecond.With()
	}
	return txtSeconds.With("n", strconv.Itoa(n))
}

// rootCause strips url.Error and net.OpError wrappers ("Post \"…\": dial tcp
// …:") that repeat what our sentence already says.
func rootCause(err error) error {
	for {
		var ue *url.Error
		var oe *net.OpError
		switch {
		case errors.As(err, &ue) && ue.Err != nil:
			err = ue.Err
		case errors.As(err, &oe) && oe.Err != nil:
			err = oe.Err
		default:
			return err
		}
	}
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 { // don't split a UTF-8 rune
		cut--
	}
	return s[:cut] + "…"
}

// clean masks the provider's secrets in an error before it leaves the
// client: the base URL's password and query values and the API key, which
// servers and the network stack quote back (a 401 body that echoes the
// key, "Post \"https://…?key=…\""). Every error Stream and ListModels
// return passes here once, so whatever prints, stores or exports it (the
// engine keeps Message in messages.error_message) has nothing to leak.
func (c *Client) clean(err error) error {
	var e *Error
	if err == nil || !errors.As(err, &e) {
		return err
	}
	redacted := redact.Text(e.Message, c.secrets...)
	if e.text != nil && e.text.English == e.Message {
		t := e.text.Map(func(s string) string { return redact.Text(s, c.secrets...) })
		e.text = &t
	}
	e.Message = redacted
	e.Said = redact.Text(e.Said, c.secrets...)
	if e.Err != nil {
		if _, done := e.Err.(cleanErr); !done {
			e.Err = cleanErr{err: e.Err, text: redact.Text(e.Err.Error(), c.secrets...)}
		}
	}
	return e
}

// cleanErr is an underlying cause whose text is masked; errors.Is and
// errors.As still reach the original.
type cleanErr struct {
	err  error
	text string
}

func (c cleanErr) Error() string { return c.text }
func (c cleanErr) Unwrap() error { return c.err }
