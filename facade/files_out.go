package facade

import (
	"path"
	"strings"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"airlock/backend/chat"
	"airlock/backend/workspace"
	"airlock/desktop"
)

// Files ▸ Save as… and Open in editor: a workspace file taken out to the rest
// of the computer (the checks are workspace.RealPath and SaveCopy).

// openFile opens a file with the system's default application (tests
// replace it).
var openFile = desktop.OpenFile

// SaveWorkspaceFileAs saves a copy of a workspace file (a Scratch file, or
// an overlay's version with its pending changes) where the user picks in the
// native save dialog, titled title (the UI's words, in its language; "" for
// an English one). It returns the path written, or "" when cancelled.
func (a *App) SaveWorkspaceFileAs(chatID, file, title string) (string, error) {
	clean, err := workspace.CleanPath(file)
	if err != nil {
		return "", toAPI(err)
	}
	if title = strings.TrimSpace(title); title == "" || len(title) > 200 {
		title = "Save a copy of " + path.Base(clean)
	}
	dest, err := runtime.SaveFileDialog(a.ctx, runtime.SaveDialogOptions{
		Title:           title,
		DefaultFilename: path.Base(clean),
	})
	if err != nil || dest == "" {
		return "", toAPI(err)
	}
	return dest, a.saveWorkspaceFile(chatID, clean, dest)
}

// saveWorkspaceFile is SaveWorkspaceFileAs once the place is chosen.
func (a *App) saveWorkspaceFile(chatID, file, dest string) error {
	w, err := a.workspace(chatID)
	if err != nil {
		return toAPI(err)
	}
	return toAPI(workspace.SaveCopy(w.FS(), file, dest))
}

// OpenWorkspaceFile opens a file of a folder workspace with the system's
// default application. The path must lead to a regular file inside the
// folder once symbolic links are followed; programs are not started.
func (a *App) OpenWorkspaceFile(chatID, file string) error {
	c, err := a.store.GetChat(a.ctx, chatID)
	if err != nil {
		return toAPI(err)
	}
	if c.WorkspaceKind != "folder" {
		return toAPI(chat.Errorf("not_folder", chat.ErrInvalid,
			"Only the files of a folder workspace open in another app; use Save as… to keep a copy of this one."))
	}
	real, err := workspace.RealPath(c.WorkspaceDir, file)
	if err != nil {
		return toAPI(err)
	}
	if err := openFile(real); err != nil {
		return toAPI(chat.Errorf("open_failed", nil, "%s", err.Error()))
	}
	return nil
}
