package llm

import (
	"context"
	"errors"
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
			return (&Error{Kind: KindServer, Err: err, overloaded: true}).say(sentence(txtOverloadedMid.With(), text, txtTryMoment.With()))
		case "rate_limit_error":
			return (&Error{Kind: KindRateLimited, Err: err}).say(sentence(txtRateLimited.With(), text, txtWait.With()))
		}
		return midStreamError(text, err, what)
	}
	status := ae.StatusCode
	switch {
	case status == statusOverloaded || kind == "overloaded_error":
		e := &Error{Kind: KindServer, StatusCode: status, Err: err, overloaded: true, RetryAfter: retryAfter(w.header)}
		return e.say(sentence(withStatus(txtOverloaded.With(), status), text, txtTryMoment.With()))
	case status == http.StatusNotFound && what == opModels:
		return (&Error{Kind: KindNotFound, StatusCode: status, Err: err}).say(txtNoModelsListd.With("server", c.shown))
	}
	return c.httpError(status, text, w.header, err, what)
}
