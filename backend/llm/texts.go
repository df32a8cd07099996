package llm

import (
	"strings"

	"airlock/backend/uitext"
)

// The sentences of a failed request, coded so the UI shows them in its
// language (backend/uitext); the server's own words stay as they came.
var (
	txtSaid       = uitext.Define("llm_said", "{{what}}: {{said}}")
	txtBare       = uitext.Define("llm_bare", "{{what}}.")
	txtWithHint   = uitext.Define("llm_with_hint", "{{what}}. {{hint}}")
	txtThen       = uitext.Define("llm_then", "{{first}} {{then}}")
	txtWithStatus = uitext.Define("llm_with_status", "{{what}} (HTTP {{status}})")
	txtTruncated  = uitext.Define("llm_truncated", "The server read only {{reported}} of the about {{estimated}} tokens Airlock sent: it runs the model with a {{window}}-token window "+
		"and silently cut the start of the conversation, so the model did not see all of it (its instructions may be among what was cut). "+
		"Raise the server's context length (Ollama: set OLLAMA_CONTEXT_LENGTH, e.g. OLLAMA_CONTEXT_LENGTH=32768 ollama serve, or num_ctx in the model's Modelfile; "+
		"LM Studio: the model's context length when loading it; llama.cpp: --ctx-size), or set this model's window to {{window}} in Settings so Airlock fits the conversation itself.")
	txtTimeout       = uitext.Define("llm_timeout", "The request ran out of time.")
	txtStopped       = uitext.Define("llm_stopped", "Stopped.")
	txtNoResponse    = uitext.Define("llm_no_response", "No response from {{server}} within {{after}}. The server may be overloaded or unreachable.")
	txtIdle          = uitext.Define("llm_idle", "The provider sent nothing for {{after}}, so Airlock stopped waiting.")
	txtNoToolsHere   = uitext.Define("llm_no_tools_here", "This model does not accept tools here")
	txtNoTools       = uitext.Define("llm_no_tools", "The model or server does not accept tools")
	txtToolsHint     = uitext.Define("llm_tools_hint", "Tools can still be offered as text in the prompt (text tool calls).")
	txtCannotBuild   = uitext.Define("llm_cannot_build", "Airlock could not build the request")
	txtBadModelList  = uitext.Define("llm_bad_model_list", "{{server}} did not return a readable model list ({{reason}}). Is it an OpenAI-compatible /v1 address?")
	txtStreamBroken  = uitext.Define("llm_stream_broken", "The connection to the provider broke before the answer was finished ({{reason}}).")
	txtClosedEarly   = uitext.Define("llm_closed_early", "The provider closed the connection before the answer was finished.")
	txtUnreadable    = uitext.Define("llm_unreadable_piece", "The provider sent a piece of the answer Airlock could not read ({{piece}}).")
	txtBadKey        = uitext.Define("llm_bad_key", "The provider rejected the API key")
	txtCheckKey      = uitext.Define("llm_check_key", "Check the key in Settings.")
	txtNoAccess      = uitext.Define("llm_no_access", "The provider refused access")
	txtCheckKeyPerms = uitext.Define("llm_check_key_perms", "Check the key and its permissions in Settings.")
	txtNoModelList   = uitext.Define("llm_no_model_list", "{{server}} has no model list")
	txtCheckV1       = uitext.Define("llm_check_v1", "Check that the base URL ends in /v1.")
	txtNoModel       = uitext.Define("llm_no_model", "The provider could not find the model {{model}}")
	txtCheckModel    = uitext.Define("llm_check_model", "Check the model name and the base URL in Settings.")
	txtRateLimited   = uitext.Define("llm_rate_limited", "The provider is rate-limiting requests")
	txtWait          = uitext.Define("llm_wait", "Wait a moment and try again.")
	txtServerError   = uitext.Define("llm_server_error", "The provider had a server error")
	txtTryLater      = uitext.Define("llm_try_later", "Try again later.")
	txtRejected      = uitext.Define("llm_rejected", "The provider rejected the request")
	txtRetryAfter    = uitext.Define("llm_retry_after", "Retry after {{after}}.")
	txtSecond        = uitext.Define("llm_one_second", "1 second")
	txtSeconds       = uitext.Define("llm_seconds", "{{n}} seconds")
	txtConnScheme    = uitext.Define("llm_conn_scheme", "Could not connect to {{server}}: the base URL must start with http:// or https://.")
	txtConnRefused   = uitext.Define("llm_conn_refused", "Could not connect to {{server}}: connection refused. Is the server running?")
	txtConnNoHost    = uitext.Define("llm_conn_no_host", "Could not connect to {{server}}: the host {{host}} was not found. Check the base URL and your network.")
	txtConnClosed    = uitext.Define("llm_conn_closed", "Could not connect to {{server}}: the server closed the connection. Check the base URL (http or https?).")
	txtConnOther     = uitext.Define("llm_conn_other", "Could not connect to {{server}}: {{reason}}.")
	txtMidStream     = uitext.Define("llm_mid_stream", "The provider failed in the middle of the answer")
	txtOverloadedMid = uitext.Define("llm_overloaded_stopped", "The provider is overloaded and stopped the answer")
	txtOverloaded    = uitext.Define("llm_overloaded", "The provider is overloaded")
	txtTryMoment     = uitext.Define("llm_try_moment", "Try again in a moment.")
	txtNoModelsListd = uitext.Define("llm_models_not_listed", "{{server}} does not list its models (HTTP 404). Type the model's name; the base URL is the address /v1/messages hangs from.")
	txtOverflow      = uitext.Define("llm_overflow", "The conversation no longer fits the model's context window")
	txtOverflowBoth  = uitext.Define("llm_overflow_numbers", "The conversation no longer fits the model's context window ({{needed}} tokens needed, the window holds {{window}})")
	txtOverflowWin   = uitext.Define("llm_overflow_window", "The conversation no longer fits the model's {{window}}-token context window")
	txtOverflowHint  = uitext.Define("llm_overflow_hint", "Compact the conversation and retry, or set a larger window for this model on the server.")
)

// say sets e's sentence: Message is its English.
func (e *Error) say(t uitext.Text) *Error {
	e.Message, e.text = t.English, &t
	return e
}

// UIText is e's sentence, coded while Message is still what it says.
func (e *Error) UIText() uitext.Text {
	if e.text != nil && e.text.English == e.Message {
		return *e.text
	}
	return uitext.Plain(e.Message)
}

// sentence is what went wrong, then the server's own words when it gave
// some, else the hint (when there is one).
func sentence(what uitext.Text, text string, hint uitext.Text) uitext.Text {
	text = clip(strings.Join(strings.Fields(text), " "), 300)
	if text == "" {
		if hint.IsZero() {
			return txtBare.With("what", what)
		}
		return txtWithHint.With("what", what, "hint", hint)
	}
	if !strings.ContainsAny(text[len(text)-1:], ".!?") {
		text += "."
	}
	return txtSaid.With("what", what, "said", text)
}

// then is one sentence followed by another.
func then(first, next uitext.Text) uitext.Text { return txtThen.With("first", first, "then", next) }

// withStatus adds the HTTP status to what went wrong.
func withStatus(what uitext.Text, status int) uitext.Text {
	return txtWithStatus.With("what", what, "status", status)
}
