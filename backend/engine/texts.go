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
