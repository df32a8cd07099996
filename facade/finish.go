package facade

import (
	"bytes"
	"path/filepath"
	"strconv"

	"airlock/backend/chat"
	"airlock/backend/export"
	"airlock/backend/store"
	"airlock/backend/workspace"
)

// folderPath is a workspace folder as it is saved: a full path, in one
// spelling (so the open workspace is found again).
func folderPath(dir string) (string, error) {
	if !filepath.IsAbs(dir) {
		return "", refuse("invalid_folder", chat.ErrInvalid, txtFullPath, "folder", strconv.Quote(dir))
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
		return toAPI(refuse("invalid_args", chat.ErrInvalid, txtUnknownKind, "kind", strconv.Quote(kind)))
	}
	clean, err := folderPath(dir)
	if err != nil {
		return toAPI(err)
	}
	return toAPI(workspace.CheckFolder(clean))
}

// chatTitles looks chats' titles up once each ("" for a chat deleted since).
func (a *App) chatTitles() func(chatID string) string {
	seen := map[string]string{}
	return func(id string) string {
		if t, ok := seen[id]; ok {
			return t
		}
		t := ""
		if c, err := a.store.GetChat(a.ctx, id); err == nil {
			t = c.Title
		}
		seen[id] = t
		return t
	}
}

// activityExport is the trail the Activity view shows (its chat, tool and
// decision filters), oldest first, and the file's name.
func (a *App) activityExport(q store.AuditQuery, format string) ([]byte, string, error) {
	var buf bytes.Buffer
	w, err := export.NewAuditWriterTitled(&buf, format, a.chatTitles())
	if err != nil {
		return nil, "", err
	}
	if err := a.store.EachAudit(a.ctx, q, w.Write); err != nil {
		return nil, "", err
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	name := "airlock-activity"
	if q.ChatID != "" {
		if c, err := a.store.GetChat(a.ctx, q.ChatID); err == nil {
			name = safeFileName(c.Title) + "-activity"
		}
	}
	return buf.Bytes(), name, nil
}
