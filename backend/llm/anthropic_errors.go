package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/anthropics/anthropic-sdk-go/v2"
)

// statusOverloaded is Anthropic's "overloaded" status: the request was fine,
// the servers are busy.
const statusOverloaded = 529

// classifyAnthropic turns what the SDK returned into an *Error, the same
// kinds as the OpenAI wire: HTTP errors through httpError, errors reported
// inside the stream (an "error" event) through midStreamError, with the
// overloaded ones (HTTP 529, overloaded_error) marked worth asking again.
func (c *Client) classifyAnthropic(ctx context.Context, w *watch, err error, what op) *Error {
	var ae *anthropic.Error
	if ctx.Err() != nil || !errors.As(err, &ae) {
		return c.classify(ctx, w, err, what)
	}
	text := ae.Message
	if text == "" {
		text = bodyText([]byte(ae.RawJSON()))
	}
	kind := string(ae.Type())
	if ae.StatusCode == 0 || ae.StatusCode == http.StatusOK {
		// An error event inside a 200 stream.
		switch kind {
		case "overloaded_error":
			return &Error{Kind: KindServer, Err: err, overloaded: true,
				Message: sentence("The provider is overloaded and stopped the answer", text, "Try again in a moment.")}
		case "rate_limit_error":
			return &Error{Kind: KindRateLimited, Err: err,
				Message: sentence("The provider is rate-limiting requests", text, "Wait a moment and try again.")}
		}
		return midStreamError(text, err, what)
	}
	status := ae.StatusCode
	switch {
	case status == statusOverloaded || kind == "overloaded_error":
		e := &Error{Kind: KindServer, StatusCode: status, Err: err, overloaded: true, RetryAfter: retryAfter(w.header)}
		e.Message = sentence(fmt.Sprintf("The provider is overloaded (HTTP %d)", status), text, "Try again in a moment.")
		return e
	case status == http.StatusNotFound && what == opModels:
		return &Error{Kind: KindNotFound, StatusCode: status, Err: err,
			Message: fmt.Sprintf("%s does not list its models (HTTP 404). Type the model's name; the base URL is the address /v1/messages hangs from.", c.shown)}
	}
	return c.httpError(status, text, w.header, err, what)
}
