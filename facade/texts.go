package facade

import (
	"airlock/backend/chat"
	"airlock/backend/uitext"
)

// The facade's own refusals, coded so the UI shows them in its language
// (backend/uitext).
var (
	txtOpenFailed     = uitext.Define("file_open_failed", "Could not open {{path}}: {{reason}}")
	txtWriteFailed    = uitext.Define("file_write_failed", "Could not write {{path}}: {{reason}}")
	txtReadFailed     = uitext.Define("file_read_failed", "Could not read {{path}}: {{reason}}")
	txtNoBaseURL      = uitext.Define("no_base_url", "AIRLOCK_BASE_URL is not set in this run.")
	txtNoModelChosen  = uitext.Define("no_model_chosen", "No model is chosen for {{provider}}. Pick one in Settings → Providers.")
	txtNoModelListed  = uitext.Define("no_model_listed", "No model is chosen for {{provider}}, and its server lists none. Pick one with the model chip at the top of the chat.")
	txtFullPath       = uitext.Define("folder_full_path", "Choose a folder by its full path (for example /home/you/project), not {{folder}}.")
	txtUnknownKind    = uitext.Define("unknown_workspace_kind", "Unknown workspace kind {{kind}}.")
	txtBadLink        = uitext.Define("bad_link", "Only http, https and mailto links open outside Airlock.")
	txtNoBrowser      = uitext.Define("no_browser", "No web browser could be opened for this link.")
	txtMCPFromEnv     = uitext.Define("mcp_from_env", "MCP server {{name}} comes from AIRLOCK_MCP_CONFIG; change that file instead.")
	txtMCPTooLarge    = uitext.Define("mcp_config_too_large", "This is larger than {{kb}} KB; an MCP config is a few KB.")
	txtNoSuchMCP      = uitext.Define("no_such_mcp_server", "No MCP server is called {{name}}.")
	txtNothingSignIn  = uitext.Define("mcp_nothing_to_sign_in", "MCP server {{name}} is not a Streamable HTTP server without its own Authorization header: there is nothing to sign in to.")
	txtBadAnswer      = uitext.Define("question_bad_answer", "An answer is accept, decline or cancel.")
	txtQuestionGone   = uitext.Define("question_gone", "This question is no longer open: the call ended or the server withdrew it.")
	txtAnswerTooLarge = uitext.Define("question_answer_too_large", "The answer is over {{kb}} KB.")
	txtBadTemperature = uitext.Define("bad_temperature", "Temperature must be between 0 and 2.")
	txtBadLanguage    = uitext.Define("bad_language", "Unknown language {{language}}.")
	txtBadTheme       = uitext.Define("bad_theme", "Unknown theme {{theme}}.")
	txtProviderGone   = uitext.Define("provider_gone", "The chosen provider no longer exists.")
	txtProviderFixed  = uitext.Define("provider_from_env", "This provider comes from AIRLOCK_BASE_URL; change the environment instead.")
)

// refuse is a coded *chat.Error.
func refuse(code string, wrapped error, t uitext.Template, pairs ...any) *chat.Error {
	return chat.Coded(code, wrapped, t.With(pairs...))
}
