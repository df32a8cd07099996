package mcp

import (
	"errors"

	"airlock/backend/uitext"
)

// The sentences of a server's status, coded so the UI shows them in its
// language (backend/uitext); Status.Reason keeps the English.
var (
	txtManagerClosed     = uitext.Define("mcp_manager_closed", "the MCP manager is closed")
	txtDisabled          = uitext.Define("mcp_disabled", "disabled")
	txtRemoved           = uitext.Define("mcp_removed", "removed")
	txtRestarting        = uitext.Define("mcp_restarting", "restarting")
	txtStopped           = uitext.Define("mcp_stopped", "stopped")
	txtAirlockClosed     = uitext.Define("mcp_airlock_closed", "Airlock closed")
	txtInitTimeout       = uitext.Define("mcp_init_timeout", "no answer to initialize within {{after}}")
	txtListTimeout       = uitext.Define("mcp_list_timeout", "no answer within {{after}}")
	txtFrameLimit        = uitext.Define("mcp_frame_limit", "it sent a message over {{mb}} MB, more than Airlock reads")
	txtListFailed        = uitext.Define("mcp_list_failed", "listing its tools failed: {{reason}}")
	txtHandshakeFailed   = uitext.Define("mcp_handshake_failed", "the start-up handshake failed: {{reason}}")
	txtExitedAtStart     = uitext.Define("mcp_exited_at_start", "exited during start-up ({{exit}})")
	txtStoppedSuddenly   = uitext.Define("mcp_stopped_unexpectedly", "stopped unexpectedly ({{why}})")
	txtConnBroke         = uitext.Define("mcp_connection_broke", "the connection broke: {{reason}}")
	txtHungUp            = uitext.Define("mcp_hung_up", "it closed the connection")
	txtStillRunning      = uitext.Define("mcp_still_running", "still running")
	txtNoTools           = uitext.Define("mcp_no_tools", "the server offers no tools")
	txtSignInNeeded      = uitext.Define("mcp_sign_in_needed", "this server needs you to sign in (Settings → Tools → Sign in)")
	txtSignInUnreachable = uitext.Define("signin_unreachable", "the server could not be reached: {{reason}}")
	txtSignInNotAsked    = uitext.Define("signin_not_asked", "this server did not ask for a sign-in")
	txtSignInFailed      = uitext.Define("signin_failed", "the sign-in failed: {{reason}}")
	txtSignInExpired     = uitext.Define("mcp_sign_in_expired", "the sign-in to this server expired or was revoked: sign in again")
)

// The sentences of a call that got no result (the model reads them too).
var (
	txtDidNotStart   = uitext.Define("mcp_did_not_start", "the MCP server {{name}} did not start: {{reason}}{{stderr}}")
	txtAbandoned     = uitext.Define("mcp_call_abandoned", "the call to {{tool}} on the MCP server {{name}} was abandoned: {{reason}}")
	txtStoppedWhile  = uitext.Define("mcp_stopped_while", "the MCP server {{name}} was stopped while running {{tool}}")
	txtCrashedWhile  = uitext.Define("mcp_crashed_while", "the MCP server {{name}} stopped while running {{tool}} ({{why}}){{stderr}}")
	txtCouldNotRun   = uitext.Define("mcp_could_not_run", "the MCP server {{name}} could not run {{tool}}: {{reason}}")
	txtStillStarting = uitext.Define("mcp_still_starting", "the MCP server {{name}} was still starting: {{reason}}")
	txtClosing       = uitext.Define("mcp_closing", "the MCP server {{name}} is not running: Airlock is closing")
	txtNotRestarted  = uitext.Define("mcp_not_restarted", "the MCP server {{name}} had stopped and could not be restarted: {{reason}}{{stderr}}")
	txtNotRunning    = uitext.Define("mcp_not_running", "the MCP server {{name}} is not running ({{reason}})")
)

// reasonOf is a start's failure as a sentence: coded when err says it whole.
func reasonOf(err error) uitext.Text {
	var le listError
	if errors.As(err, &le) {
		return txtListFailed.With("reason", le.err)
	}
	return uitext.Of(err)
}

// A server's configuration refused (the Settings form shows these).
var (
	txtCfgField             = uitext.Define("mcp_cfg_field", "MCP server {{server}}: {{field}} {{problem}}")
	txtCfgNoCommand         = uitext.Define("mcp_cfg_no_command", "is missing: a stdio server needs the program to start")
	txtCfgURLOnStdio        = uitext.Define("mcp_cfg_url_on_stdio", "is set on a stdio server: give either a command or a url, not both")
	txtCfgNoURL             = uitext.Define("mcp_cfg_no_url", "is missing: an {{kind}} server needs its address")
	txtCfgBadURL            = uitext.Define("mcp_cfg_bad_url", "must be an http:// or https:// address")
	txtCfgCommandOnHTTP     = uitext.Define("mcp_cfg_command_on_http", "is set on an {{kind}} server: give either a command or a url, not both")
	txtCfgBadType           = uitext.Define("mcp_cfg_bad_type", "is {{type}}; use stdio, http (Streamable HTTP) or sse")
	txtCfgBadEnv            = uitext.Define("mcp_cfg_bad_env", "has an invalid variable name {{name}}")
	txtCfgBadHeader         = uitext.Define("mcp_cfg_bad_header", "has an invalid header name {{name}}")
	txtCfgNegativeTimeout   = uitext.Define("mcp_cfg_negative_timeout", "must not be negative")
	txtCfgTwice             = uitext.Define("mcp_cfg_twice", "MCP server {{server}} is defined twice")
	txtNameBad              = uitext.Define("mcp_name_bad", "MCP server name {{name}} {{why}}")
	txtNameMissing          = uitext.Define("mcp_name_missing", "an MCP server has no name")
	txtNameTooLong          = uitext.Define("mcp_name_too_long", "is longer than {{max}} characters")
	txtNameDoubleUnderscore = uitext.Define("mcp_name_double_underscore", `contains "__", which separates the server from the tool in tool names`)
	txtNameEnds             = uitext.Define("mcp_name_ends", "must start and end with a letter or digit")
	txtNameChars            = uitext.Define("mcp_name_chars", "may only contain letters, digits, '-' and '_'")
)
