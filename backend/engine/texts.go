package engine

import (
	"airlock/backend/chat"
	"airlock/backend/uitext"
)

// The engine's sentences for people, coded so the UI shows them in its
// language (backend/uitext). The English is also what the model reads of
// a failed call.
var (
	txtRunTimedOut     = uitext.Define("run_timed_out", "the run timed out after {{after}} and was stopped")
	txtCallShutDown    = uitext.Define("call_shut_down", "the app shut down while this call was running; it was not finished")
	txtCallCancelled   = uitext.Define("call_cancelled", "the user cancelled this call after {{after}}")
	txtCallTimedOut    = uitext.Define("call_timed_out", "the call timed out after {{after}} and was stopped")
	txtNoSuchTool      = uitext.Define("no_such_tool", "there is no tool named {{name}} in this chat now (an MCP server's tool is gone when the server stops or is left out of the chat)")
	txtNoWorkspace     = uitext.Define("workspace_not_available", "the workspace is not available: {{reason}}")
	txtToolCrashed     = uitext.Define("tool_crashed", "the tool crashed: {{reason}}")
	txtChangeNotSaved  = uitext.Define("change_not_saved", "the change was made but could not be saved: {{reason}}")
	txtWorkspaceClosed = uitext.Define("workspace_unavailable", "Nothing was sent to the model: this chat's workspace cannot be opened ({{reason}}). Choose its folder again, or switch the chat to Scratch, then Retry.")
	txtEmptyMessage    = uitext.Define("empty_message", "Type a message first.")
	txtBusyAnswering   = uitext.Define("busy_answering", "The model is still answering in this chat. Wait for it or press Stop.")
	txtBusy            = uitext.Define("busy_still_answering", "The model is still answering in this chat.")
	txtNothingToRetry  = uitext.Define("nothing_to_retry", "There is nothing to retry in this chat yet.")
	txtLastCompleted   = uitext.Define("last_answer_completed", "The last answer completed; there is nothing to retry.")
	txtPreviewSlow     = uitext.Define("preview_slow", "preview unavailable: the previews of this answer took more than {{budget}} (approving runs the call as usual)")
	txtPreviewCrashed  = uitext.Define("preview_crashed", "the preview crashed: {{reason}}")
)

// The notices a chat shows above its composer.
var (
	txtCallsNotSaved   = uitext.Define("notice_calls_not_saved", "The tool calls in this answer could not be saved: {{reason}}")
	txtResultsNotSaved = uitext.Define("notice_results_not_saved", "The tool results could not be saved: {{reason}}")
	txtTurnCap         = uitext.Define("notice_turn_cap", "Paused after {{n}} model turns for one message (the limit of the chat's agent). Press Continue to let the model go on.")
	txtVisionLearned   = uitext.Define("notice_vision_learned", "{{model}} does not take images ({{reason}}). They are left out from now on, and the model is told a file was there. If it does take images, change this in the chat's Tools menu.")
	txtAuditFailed     = uitext.Define("notice_audit_failed", "A decision on {{tool}} could not be written to the audit trail: {{reason}}")
	txtCompactAsk      = uitext.Define("notice_compact_ask", "{{n}} older messages no longer fit the model's window and are left out of what it sees. Open the context gauge and press Compact to fold them into a summary.")
	txtCompactFailed   = uitext.Define("notice_compact_failed", "Airlock could not summarise the older messages ({{reason}}); they are left out of what the model sees instead.")
	txtRefit           = uitext.Define("notice_refit", "The server refused the request as longer than its context window ({{window}} tokens). Airlock shortened the conversation to fit and asked again.")
	txtCompacted       = uitext.Define("notice_compacted", "The model's window was full: Airlock folded {{n}} older messages (about {{before}} tokens) into a summary of about {{after}} tokens. The messages stay in the chat; the summary can be undone.")
	txtNativeCalls     = uitext.Define("notice_native_calls", "native tool calls")
	txtTextCalls       = uitext.Define("notice_text_calls", "tool calls written as text")
	txtServerSaid      = uitext.Define("reason_server_said", "the server said “{{said}}”")
	txtServerSaidHTTP  = uitext.Define("reason_server_said_http", "the server said “{{said}}” (HTTP {{status}})")
	txtLearnNativeWork = uitext.Define("reason_native_calls_work", "its native calls work")
	txtLearnBadJSON    = uitext.Define("reason_native_bad_json", "the arguments of its native calls were not valid JSON {{n}} answers in a row")
	txtLearnWroteText  = uitext.Define("reason_wrote_text_calls", "it wrote its calls as text although tools were offered")
	txtModeLearned     = uitext.Define("notice_mode_learned", "{{model}} will use {{how}} from now on: {{reason}}. Change this in the chat's Tools menu.")
)

// The engine's refusals of an action (shown as toasts).
var (
	txtBusyTool           = uitext.Define("busy_tool_running", "A tool is still running in this chat. Wait for it or cancel it.")
	txtNothingToCompact   = uitext.Define("nothing_to_compact", "There is nothing before the last exchange to summarise yet.")
	txtCompactWriteFailed = uitext.Define("compact_failed", "The summary could not be written: {{reason}}")
	txtNotEditable        = uitext.Define("not_editable", "Only your own messages can be edited.")
	txtNotRegenerable     = uitext.Define("not_regenerable", "Only an answer can be regenerated.")
	txtNotAValidCall      = uitext.Define("not_a_valid_call", "This call could not be read as a valid call; fix it first or tell the model.")
	txtOnlyProblemFix     = uitext.Define("only_problem_fix", "Only an unsettled problem card can be fixed.")
	txtAlreadyDecided     = uitext.Define("call_already_decided", "This {{tool}} call is already {{state}}.")
	txtOnlyProblemSend    = uitext.Define("only_problem_send", "Only an unsettled problem card can be sent to the model.")
	txtNothingToContinue  = uitext.Define("nothing_to_continue", "There are no tool results waiting to be sent.")
	// Problem cards of native calls (the model reads the English).
	txtNativeCutOff  = uitext.Define("problem_native_cut_off", "The answer ended before this call was complete (cut off at the output limit, or the connection broke), so it was not run.")
	txtNativeTooLong = uitext.Define("problem_native_too_long", "The arguments were longer than {{kb}} KB and were cut, so the call was not run.")
	txtNativeBadJSON = uitext.Define("problem_native_bad_json", "The arguments are not valid JSON, so the call was not run: {{error}}")
	txtNativeNoName  = uitext.Define("problem_no_tool_name", "The tool call has no tool name, so it was not run.")
	txtNativeDropped = uitext.Define("problem_native_dropped", "The answer had more than {{max}} tool calls; the rest were not turned into cards. Make fewer calls at a time.")
	txtTooManyCalls  = uitext.Define("problem_too_many_calls", "This answer asked for {{count}} tool calls; Airlock takes at most {{max}} from one answer. The other {{left}} were left out and will not run: ask for fewer at a time.")
	txtProblemNoRule = uitext.Define("problem_no_rule", "A problem card cannot make a rule; fix it first.")
	txtTooManyFiles  = uitext.Define("too_many_files", "{{n}} files are attached; a message may carry at most {{max}}.")
	txtTooSmall      = uitext.Define("context_too_small", "This request needs about {{needed}} tokens even with older messages left out, but the model's window is {{window}} tokens ({{source}}) with {{reserve}} kept for the answer. Shorten your last message or the system prompt, offer fewer tools, or use a model with a larger window.")
)

// codedText is err's sentence when it is coded whole, for a stored
// ResultText or ErrorText (nil otherwise: the English is shown).
func codedText(err error) *uitext.Text {
	if t, ok := uitext.Whole(err); ok {
		return &t
	}
	return nil
}

// busyErr and friends are the engine's coded refusals.
func refuse(code string, wrapped error, t uitext.Template, pairs ...any) *chat.Error {
	return chat.Coded(code, wrapped, t.With(pairs...))
}
