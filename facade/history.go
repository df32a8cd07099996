package facade

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"airlock/backend/bridge"
	"airlock/backend/chat"
	"airlock/backend/export"
)

// History: versions, search, chat actions, export and import.

func (a *App) EditAndResend(messageID, text string) ([]chat.Message, error) {
	return result(a.engine.EditAndResend(a.ctx, messageID, text))
}
func (a *App) Regenerate(messageID string) (chat.Message, error) {
	return result(a.engine.Regenerate(a.ctx, messageID))
}

// ListVersions returns every version of a message's turn, oldest first.
func (a *App) ListVersions(messageID string) ([]chat.Message, error) {
	return result(a.store.ListVersions(a.ctx, messageID))
}
func (a *App) SwitchVersion(messageID string) (chat.Chat, error) {
	return result(a.engine.SwitchVersion(a.ctx, messageID))
}

// ListMessagesPage returns up to limit messages of the active path before
// beforeID ("" = the newest): a long chat opens with what is visible.
func (a *App) ListMessagesPage(chatID, beforeID string, limit int) ([]chat.Message, error) {
	return result(a.store.ListMessagesPage(a.ctx, chatID, beforeID, limit))
}

// Search finds messages and tool calls across all chats, best first.
func (a *App) Search(query string) ([]chat.SearchHit, error) {
	return result(a.store.Search(a.ctx, query, 50))
}

// SearchChat finds messages and tool calls in one chat (find in chat).
func (a *App) SearchChat(chatID, query string) ([]chat.SearchHit, error) {
	return result(a.store.SearchChat(a.ctx, chatID, query))
}

func (a *App) SetPinned(chatID string, pinned bool) (chat.Chat, error) {
	return result(a.store.SetPinned(a.ctx, chatID, pinned))
}
func (a *App) DuplicateChat(chatID string) (chat.Chat, error) {
	return result(a.store.DuplicateChat(a.ctx, chatID))
}

// ExportChats writes chats (none given: all) in a format (md, html, json)
// to a file chosen in the native save dialog. Markdown keeps attached files
// in a folder beside it ("<name>_files"), linked relatively. It returns the
// path written, or "" when the user cancelled.
func (a *App) ExportChats(chatIDs []string, format string) (string, error) {
	b, err := export.Build(a.ctx, a.store, chatIDs)
	if err != nil {
		return "", toAPI(err)
	}
	name := "airlock-export"
	if len(b.Chats) == 1 {
		name = safeFileName(b.Chats[0].Title)
	}
	ext := export.Extension(format)
	if ext == "md" {
		path, err := a.savePath("Export chats", name, ext)
		if err != nil || path == "" {
			return "", toAPI(err)
		}
		if _, err := export.WriteMarkdownFile(path, b); err != nil {
			return "", toAPI(err)
		}
		return path, nil
	}
	var buf bytes.Buffer
	if err := export.Write(&buf, b, format); err != nil {
		return "", toAPI(err)
	}
	return a.saveAs("Export chats", name, ext, buf.Bytes())
}

// saveAs writes data to a file chosen in the native save dialog, offered as
// name-<date>.ext. It returns the path written, or "" when the user cancelled.
func (a *App) saveAs(title, name, ext string, data []byte) (string, error) {
	path, err := a.savePath(title, name, ext)
	if err != nil || path == "" {
		return "", toAPI(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return "", toAPI(refuse("export_failed", err, txtWriteFailed, "path", path, "reason", err.Error()))
	}
	return path, nil
}

// savePath asks where to save in the native save dialog, offering
// name-<date>.ext ("" when the user cancelled).
func (a *App) savePath(title, name, ext string) (string, error) {
	path, err := runtime.SaveFileDialog(a.ctx, runtime.SaveDialogOptions{
		Title:           title,
		DefaultFilename: fmt.Sprintf("%s-%s.%s", name, time.Now().Format("2006-01-02"), ext),
		Filters:         []runtime.FileFilter{{DisplayName: strings.ToUpper(ext) + " files", Pattern: "*." + ext}},
	})
	if err != nil || path == "" {
		return "", err
	}
	if filepath.Ext(path) == "" {
		path += "." + ext
	}
	return path, nil
}

// ImportResult tells the UI what an import did.
type ImportResult struct {
	Source  string `json:"source"`  // "airlock" or "chatgpt"
	Summary string `json:"summary"` // one line for people
	Path    string `json:"path"`
}

// ImportFile imports an Airlock export or a ChatGPT conversations.json chosen
// in the native open dialog: all of it or, on any error, nothing.
func (a *App) ImportFile() (ImportResult, error) {
	path, err := runtime.OpenFileDialog(a.ctx, runtime.OpenDialogOptions{
		Title:   "Import chats (Airlock JSON export or ChatGPT conversations.json)",
		Filters: []runtime.FileFilter{{DisplayName: "JSON files", Pattern: "*.json"}},
	})
	if err != nil || path == "" {
		return ImportResult{}, toAPI(err)
	}
	f, err := os.Open(path)
	if err != nil {
		return ImportResult{}, toAPI(refuse("import_failed", err, txtOpenFailed, "path", path, "reason", err.Error()))
	}
	defer f.Close()
	b, src, err := export.Read(f)
	if err != nil {
		return ImportResult{}, toAPI(err)
	}
	report, err := export.Import(a.ctx, a.store, b)
	if err != nil {
		return ImportResult{}, toAPI(err)
	}
	a.emit(bridge.EventChatsChanged, nil)
	return ImportResult{Source: string(src), Summary: report.String(), Path: path}, nil
}

// safeFileName turns a chat title into a file name.
func safeFileName(title string) string {
	var b strings.Builder
	for _, r := range strings.TrimSpace(title) {
		switch {
		case r == '/' || r == '\\' || r == ':' || r == '*' || r == '?' || r == '"' || r == '<' || r == '>' || r == '|' || r < ' ':
			b.WriteRune('-')
		default:
			b.WriteRune(r)
		}
		if b.Len() > 60 {
			break
		}
	}
	if s := strings.Trim(b.String(), " .-"); s != "" {
		return s
	}
	return "chat"
}
