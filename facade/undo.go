package facade

import (
	"encoding/json"
	"errors"

	"airlock/backend/bridge"
	"airlock/backend/uitext"
	"airlock/backend/workspace"
)

// Undo: the checkpoints kept before changes reached a real folder (a folder
// workspace's tool runs, an overlay's Apply), and putting one back.

// CheckpointPathView is one path a change touched, as the history lists it.
type CheckpointPathView struct {
	Path  string `json:"path"`
	Op    string `json:"op"` // added, modified, deleted (what the change did)
	IsDir bool   `json:"isDir,omitempty"`
	// Size is that of the copy kept (what Undo puts back); 0 for a path
	// where nothing was.
	Size     int64        `json:"size"`
	Kept     bool         `json:"kept"`
	Note     string       `json:"note,omitempty"`
	NoteText *uitext.Text `json:"noteText,omitempty"` // Note coded for the UI's language
}

// CheckpointView is one checkpoint of a chat.
type CheckpointView struct {
	ID        string               `json:"id"`
	CallID    string               `json:"callId"` // "" for an Apply or a run by hand
	Tool      string               `json:"tool"`   // a tool's name, or "apply"
	Dir       string               `json:"dir"`
	CreatedAt int64                `json:"createdAt"`
	Paths     []CheckpointPathView `json:"paths"`     // the first ones (see PathCount)
	PathCount int                  `json:"pathCount"` // all of them
	Undone    bool                 `json:"undone"`
	UndoneAt  int64                `json:"undoneAt,omitempty"`
	Undoable  bool                 `json:"undoable"`
	// Blocker says why it cannot be undone: undone, dropped, incomplete, not_kept.
	Blocker string `json:"blocker,omitempty"`
	Bytes   int64  `json:"bytes"`
	Dropped bool   `json:"dropped"`
}

// CheckpointList is a chat's checkpoints, newest first, with the caps.
type CheckpointList struct {
	Checkpoints []CheckpointView `json:"checkpoints"`
	Bytes       int64            `json:"bytes"`     // kept in all
	Limit       int64            `json:"limit"`     // per chat; the oldest are dropped first
	FileLimit   int64            `json:"fileLimit"` // a larger file is not kept
	Dropped     int              `json:"dropped"`   // checkpoints whose copies were dropped
}

const (
	maxCheckpointsListed = 200
	maxPathsListed       = 50
)

// ListCheckpoints lists a chat's checkpoints (the cards find theirs by callId).
func (a *App) ListCheckpoints(chatID string) (CheckpointList, error) {
	out := CheckpointList{Checkpoints: []CheckpointView{}, Limit: workspace.CheckpointChatMax, FileLimit: workspace.CheckpointFileMax}
	cps, err := a.store.ListCheckpoints(a.ctx, chatID, maxCheckpointsListed, maxPathsListed)
	if err != nil {
		return out, toAPI(err)
	}
	for _, c := range cps {
		out.Checkpoints = append(out.Checkpoints, checkpointView(c))
	}
	out.Bytes, out.Dropped, err = a.store.CheckpointTotals(a.ctx, chatID)
	return out, toAPI(err)
}

func checkpointView(c workspace.Checkpoint) CheckpointView {
	v := CheckpointView{ID: c.ID, CallID: c.CallID, Tool: c.Tool, Dir: c.Dir, CreatedAt: c.CreatedAt,
		Paths: []CheckpointPathView{}, PathCount: c.PathCount, Undone: c.UndoneAt != 0, UndoneAt: c.UndoneAt,
		Bytes: c.Bytes, Dropped: c.DroppedAt != 0}
	// A listing holds the first paths only, those not kept first: Blocker sees them.
	v.Blocker = c.Blocker()
	v.Undoable = v.Blocker == ""
	for _, p := range c.Paths {
		size := int64(0)
		if p.Before.Kind == workspace.EntryFile {
			size = p.Before.Size
		}
		v.Paths = append(v.Paths, CheckpointPathView{Path: p.Path, Op: string(p.Op()),
			IsDir: p.Before.Kind == workspace.EntryDir || p.After.Kind == workspace.EntryDir,
			Size:  size, Kept: p.Kept, Note: p.Note, NoteText: p.NoteText})
	}
	return v
}

// undoConflictError is the undo_conflict error with the paths that changed.
type undoConflictError struct {
	Code    string                   `json:"code"`
	Message string                   `json:"message"`
	Paths   []workspace.UndoConflict `json:"paths"`
}

func (e undoConflictError) Error() string {
	b, _ := json.Marshal(e)
	return string(b)
}

// UndoCheckpoint puts back what a checkpoint kept, when every path still
// holds what the change left; otherwise nothing is restored and the error
// (code undo_conflict) lists the paths that changed since.
func (a *App) UndoCheckpoint(id string) (workspace.UndoResult, error) {
	res, err := a.workspaces.Undo(a.ctx, id)
	if res.ChatID != "" && len(res.Restored) > 0 {
		a.emit(bridge.EventWorkspaceChanged, bridge.WorkspaceChanged{ChatID: res.ChatID})
	}
	var conflict *workspace.UndoConflictError
	if errors.As(err, &conflict) {
		return res, undoConflictError{Code: conflict.Code(), Message: conflict.Error(), Paths: conflict.Paths}
	}
	return res, toAPI(err)
}
