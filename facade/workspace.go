package facade

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"sort"
	"syscall"

	"github.com/spf13/afero"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"airlock/backend/chat"
	"airlock/backend/tools"
	"airlock/backend/workspace"
)

// Workspaces: where a chat's file tools act, and what the user sees of it.

// envFor is the engine's EnvFor: the chat's workspace.
func (a *App) envFor(ctx context.Context, chatID string) (tools.Env, error) {
	c, err := a.store.GetChat(ctx, chatID)
	if err != nil {
		return tools.Env{}, err
	}
	return a.workspaces.Env(ctx, chatID, c.ChatOptions)
}

// WorkspaceEntry is one file or folder in the files panel.
type WorkspaceEntry struct {
	Path    string `json:"path"`
	IsDir   bool   `json:"isDir"`
	Size    int64  `json:"size"`
	Changed string `json:"changed,omitempty"` // overlay: added, modified or deleted
}

// WorkspaceInfo describes a chat's workspace and lists its files.
type WorkspaceInfo struct {
	Kind      string           `json:"kind"`
	Dir       string           `json:"dir"`
	Entries   []WorkspaceEntry `json:"entries"`
	Truncated bool             `json:"truncated"` // more than maxEntries files
}

const maxEntries = 5000

func (a *App) workspace(chatID string) (*workspace.Workspace, error) {
	c, err := a.store.GetChat(a.ctx, chatID)
	if err != nil {
		return nil, err
	}
	return a.workspaces.Get(a.ctx, chatID, c.ChatOptions)
}

// GetWorkspace lists the chat's workspace (for the files panel).
func (a *App) GetWorkspace(chatID string) (WorkspaceInfo, error) {
	w, err := a.workspace(chatID)
	if err != nil {
		return WorkspaceInfo{}, toAPI(err)
	}
	info := WorkspaceInfo{Kind: string(w.Kind()), Dir: w.Dir(), Entries: []WorkspaceEntry{}}
	changed := map[string]string{}
	if w.Kind() == workspace.KindOverlay {
		if cs, err := w.Changes(); err == nil {
			for _, c := range cs {
				changed[c.Path] = string(c.Op)
			}
		}
	}
	err = afero.Walk(w.FS(), "/", func(p string, fi fs.FileInfo, err error) error {
		if err != nil || p == "/" {
			return nil // unreadable entries (links leading outside) are skipped
		}
		if len(info.Entries) >= maxEntries {
			info.Truncated = true
			return fs.SkipAll
		}
		rel := p[1:]
		info.Entries = append(info.Entries, WorkspaceEntry{Path: rel, IsDir: fi.IsDir(), Size: fi.Size(), Changed: changed[rel]})
		if fi.IsDir() && (fi.Name() == ".git" || fi.Name() == "node_modules") {
			return fs.SkipDir
		}
		return nil
	})
	for p, op := range changed {
		if op == string(workspace.OpDeleted) {
			info.Entries = append(info.Entries, WorkspaceEntry{Path: p, Changed: op})
		}
	}
	sort.Slice(info.Entries, func(i, j int) bool { return info.Entries[i].Path < info.Entries[j].Path })
	return info, toAPI(err)
}

// FileView is a file opened read-only in the files panel.
type FileView struct {
	Path      string `json:"path"`
	Content   string `json:"content"`
	Binary    bool   `json:"binary"`
	Size      int64  `json:"size"`
	Truncated bool   `json:"truncated"`
}

const viewCap = 512 << 10

// ReadWorkspaceFile opens a file of the chat's workspace read-only.
func (a *App) ReadWorkspaceFile(chatID, path string) (FileView, error) {
	w, err := a.workspace(chatID)
	if err != nil {
		return FileView{}, toAPI(err)
	}
	clean, err := workspace.CleanPath(path)
	if err != nil {
		return FileView{}, toAPI(err)
	}
	// Streamed through the cap: a 1 GiB file costs viewCap, not 1 GiB
	// (nor 4 GiB, which reading it whole did). Pipes and devices are
	// refused by the workspace's open.
	f, err := w.FS().Open(workspace.FSName(clean))
	if err != nil {
		return FileView{}, toAPI(workspace.FSError(clean, err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return FileView{}, toAPI(workspace.FSError(clean, err))
	}
	if fi.IsDir() {
		return FileView{}, toAPI(workspace.FSError(clean, syscall.EISDIR))
	}
	data, err := io.ReadAll(io.LimitReader(f, viewCap+1))
	if err != nil {
		return FileView{}, toAPI(workspace.FSError(clean, err))
	}
	v := FileView{Path: clean, Size: max(fi.Size(), int64(len(data))), Binary: workspace.IsBinary(data)}
	if v.Binary {
		return v, nil
	}
	if len(data) > viewCap {
		data, v.Truncated = data[:viewCap], true
	}
	v.Content = string(data)
	return v, nil
}

// SetWorkspace changes where the chat's tools work. Scratch files stay
// saved when switching away and back.
func (a *App) SetWorkspace(chatID, kind, dir string) (chat.Chat, error) {
	c, err := a.store.GetChat(a.ctx, chatID)
	if err != nil {
		return c, toAPI(err)
	}
	o := c.ChatOptions
	o.WorkspaceKind, o.WorkspaceDir = kind, ""
	if kind != string(workspace.KindScratch) {
		if o.WorkspaceDir, err = folderPath(dir); err != nil {
			return c, toAPI(err)
		}
	}
	// Open it before saving: an unusable folder is refused now, and the
	// chat keeps its working workspace.
	if _, err := a.workspaces.Get(a.ctx, chatID, o); err != nil {
		_, _ = a.workspaces.Get(a.ctx, chatID, c.ChatOptions)
		return c, toAPI(err)
	}
	return result(a.store.SetChatOptions(a.ctx, chatID, o))
}

// PickFolder asks for a folder with the native dialog ("" when cancelled).
func (a *App) PickFolder() (string, error) {
	return result(runtime.OpenDirectoryDialog(a.ctx, runtime.OpenDialogOptions{Title: "Choose the folder the model may work in"}))
}

// WorkspaceChanges lists what an overlay workspace would write to disk.
func (a *App) WorkspaceChanges(chatID string) ([]workspace.Change, error) {
	w, err := a.workspace(chatID)
	if err != nil {
		return nil, toAPI(err)
	}
	changes, err := w.Changes()
	if changes == nil {
		changes = []workspace.Change{}
	}
	return changes, toAPI(err)
}

// ApplyChanges writes an overlay's changes (all, or the paths given) to disk.
func (a *App) ApplyChanges(chatID string, paths []string) error {
	w, err := a.workspace(chatID)
	if err != nil {
		return toAPI(err)
	}
	return toAPI(w.Apply(paths...))
}

// DiscardChanges drops an overlay's changes (all, or the paths given).
func (a *App) DiscardChanges(chatID string, paths []string) error {
	w, err := a.workspace(chatID)
	if err != nil {
		return toAPI(err)
	}
	return toAPI(w.Discard(paths...))
}

// ResetScratch empties the chat's scratch workspace.
func (a *App) ResetScratch(chatID string) error {
	return toAPI(a.workspaces.ResetScratch(a.ctx, chatID))
}

// RunTool runs a tool by hand on the chat's workspace (the Tool lab): the
// person asking is the one deciding. It takes the engine's one run path.
func (a *App) RunTool(chatID, name string, args json.RawMessage) (tools.Output, error) {
	return result(a.engine.RunByHand(a.ctx, chatID, name, args))
}
