package main

import (
	"path/filepath"

	"airlock/backend/chat"
	"airlock/backend/workspace"
)

// folderPath is a workspace folder as it is saved: a full path, in one
// spelling (so the open workspace is found again).
func folderPath(dir string) (string, error) {
	if !filepath.IsAbs(dir) {
		return "", chat.Errorf("invalid_folder", chat.ErrInvalid, "Choose a folder by its full path (for example /home/you/project), not %q.", dir)
	}
	return filepath.Clean(dir), nil
}

// CheckWorkspaceFolder says whether a folder can be a workspace now (the
// new chat's choice is checked when it is saved, before the chat exists).
func (a *App) CheckWorkspaceFolder(kind, dir string) error {
	if kind == string(workspace.KindScratch) {
		return nil
	}
	if kind != string(workspace.KindFolder) && kind != string(workspace.KindOverlay) {
		return toAPI(chat.Errorf("invalid_args", chat.ErrInvalid, "Unknown workspace kind %q.", kind))
	}
	clean, err := folderPath(dir)
	if err != nil {
		return toAPI(err)
	}
	return toAPI(workspace.CheckFolder(clean))
}
