package facade

import (
	"airlock/backend/attach"
	"airlock/backend/chat"
)

// WorkspaceAttachment reads a file of the chat's workspace for the message
// being written (the Files panel's "Attach to message"): the path stays
// inside the workspace, the size is checked before the file is read, and
// the bytes are checked like any attached file. The UI adds it to the
// composer's files; it is checked again when sent.
func (a *App) WorkspaceAttachment(chatID, path string) (chat.NewAttachment, error) {
	w, err := a.workspace(chatID)
	if err != nil {
		return chat.NewAttachment{}, toAPI(err)
	}
	return result(attach.FromWorkspace(w.FS(), path))
}
