package workspace

import (
	"airlock/backend/uitext"
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"

	"github.com/spf13/afero"
)

// Checkpoints. Before a change reaches a real folder (a tool run in a
// folder workspace, an overlay's Apply) the state of every path it touches
// is kept: a file's content and mode, a folder's mode, a link's target, or
// that nothing was there. Both ends of a move are kept, and everything
// under a folder that is deleted or moved. The copy is saved before the
// folder is written; once the change is done, the state it left each path in
// (its "after", a hash for files) is saved beside it, so Undo can tell
// whether anything changed since.

// Caps.
const (
	// CheckpointFileMax: a file larger than this is not kept (undo is not
	// available for that change); the write itself goes ahead.
	CheckpointFileMax = 10 << 20
	// CheckpointChatMax: the contents kept for one chat. Older checkpoints
	// are dropped first; one change keeps at most this much.
	CheckpointChatMax = 200 << 20
	// hashMax: a file's "after" is hashed up to this size; a larger one is
	// compared by size and modification time.
	hashMax = 64 << 20
)

// EntryKind is what a path held.
type EntryKind string

const (
	EntryAbsent     EntryKind = "absent"
	EntryFile       EntryKind = "file"
	EntryDir        EntryKind = "dir"
	EntryLink       EntryKind = "link"
	EntryUnreadable EntryKind = "unreadable" // could not be looked at: never equal to anything
)

// Image is the state of one path at one moment.
type Image struct {
	Kind    EntryKind   `json:"kind"`
	Mode    fs.FileMode `json:"mode,omitempty"` // permission bits
	Size    int64       `json:"size,omitempty"`
	ModTime time.Time   `json:"modTime"`
	// Hash is the SHA-256 of a file's content or a link's target; nil when
	// the file was too large to hash (then size and time are compared).
	Hash []byte `json:"hash,omitempty"`
}

// Same reports whether a path held the same thing at both moments: the
// same kind, content (or link target) and mode.
func (a Image) Same(b Image) bool {
	if a.Kind != b.Kind || a.Kind == EntryUnreadable {
		return false
	}
	switch a.Kind {
	case EntryAbsent:
		return true
	case EntryDir:
		return a.Mode == b.Mode
	case EntryLink:
		return bytes.Equal(a.Hash, b.Hash)
	}
	if a.Mode != b.Mode || a.Size != b.Size {
		return false
	}
	if a.Hash != nil && b.Hash != nil {
		return bytes.Equal(a.Hash, b.Hash)
	}
	return a.ModTime.Equal(b.ModTime)
}

// Exists says something was there.
func (a Image) Exists() bool { return a.Kind != EntryAbsent }

// CheckpointPath is one path a change touched.
type CheckpointPath struct {
	Path string `json:"path"`
	// Follow: the change went through a symbolic link in the last place
	// (a write to a link writes its target); the path is looked at the same way.
	Follow bool  `json:"follow,omitempty"`
	Before Image `json:"before"`
	After  Image `json:"after"` // once the checkpoint is complete
	// Content is the kept content of a file, or a link's target. Listings
	// leave it out; Kept says whether there is one.
	Content []byte `json:"-"`
	// Kept: Before can be put back (always, for a path where nothing was,
	// or a folder). A file too large to keep is not, and Note says why.
	Kept bool   `json:"kept"`
	Note string `json:"note,omitempty"`
	// NoteText is Note coded for the UI's language.
	NoteText *uitext.Text `json:"noteText,omitempty"`
}

// Op is what the change did to the path.
func (p CheckpointPath) Op() Op {
	switch {
	case !p.Before.Exists():
		return OpAdded
	case !p.After.Exists():
		return OpDeleted
	}
	return OpModified
}

// Checkpoint is the pre-image of one change to a real folder.
type Checkpoint struct {
	ID     string `json:"id"`
	ChatID string `json:"chatId"`
	CallID string `json:"callId"` // "" for a run by hand or an Apply
	Tool   string `json:"tool"`   // the tool's name, or "apply"
	Dir    string `json:"dir"`    // the real folder
	// CreatedAt is when the first copy was saved (Unix milliseconds).
	CreatedAt int64 `json:"createdAt"`
	// Complete: the change finished and its "after" states are saved. A
	// checkpoint left incomplete (the app stopped mid-change) can still be
	// undone when every path's copy was kept: Undo takes the paths as they
	// are now for what the change left.
	Complete  bool             `json:"complete"`
	UndoneAt  int64            `json:"undoneAt,omitempty"`
	DroppedAt int64            `json:"droppedAt,omitempty"` // contents dropped to stay under CheckpointChatMax
	Bytes     int64            `json:"bytes"`               // contents kept
	Paths     []CheckpointPath `json:"paths"`
	// PathCount is the number of paths when a listing holds only the first ones.
	PathCount int `json:"pathCount"`
}

// ToolApply is the Tool of an overlay's Apply checkpoint.
const ToolApply = "apply"

// Why a checkpoint cannot be undone (Checkpoint.Blocker).
const (
	BlockUndone     = "undone"     // it already was
	BlockDropped    = "dropped"    // its copies were dropped to stay under the chat's cap
	BlockIncomplete = "incomplete" // the app stopped before the change finished
	BlockNotKept    = "not_kept"   // a file it changed was too large (or unreadable) to keep
)

// Blocker says why the checkpoint cannot be undone ("" when it can, as far
// as the checkpoint alone tells: the folder may have changed since).
func (c Checkpoint) Blocker() string {
	switch {
	case c.UndoneAt != 0:
		return BlockUndone
	case c.DroppedAt != 0:
		return BlockDropped
	}
	for _, p := range c.Paths {
		if !p.Kept && !c.Complete {
			return BlockIncomplete
		}
		if !p.Kept {
			return BlockNotKept
		}
	}
	return ""
}

// CheckpointStore keeps checkpoints.
type CheckpointStore interface {
	// CreateCheckpoint saves a new, incomplete checkpoint and its first
	// paths (with their contents), and sets c.ID (ids sort by creation).
	CreateCheckpoint(ctx context.Context, c *Checkpoint) error
	// AddCheckpointPaths saves more paths of an incomplete checkpoint.
	AddCheckpointPaths(ctx context.Context, id string, paths []CheckpointPath) error
	// FinishCheckpoint saves the "after" of the paths given and forgets the
	// others (the change left them as they were); with none, the checkpoint
	// is deleted.
	FinishCheckpoint(ctx context.Context, id string, paths []CheckpointPath) error
	// PruneCheckpoints drops the contents of a chat's oldest checkpoints
	// until those kept add up to at most maxBytes; it returns how many it dropped.
	PruneCheckpoints(ctx context.Context, chatID string, maxBytes int64) (int, error)
	// GetCheckpoint returns a checkpoint with its contents.
	GetCheckpoint(ctx context.Context, id string) (Checkpoint, error)
	// MarkCheckpointUndone records the undo and drops the contents.
	MarkCheckpointUndone(ctx context.Context, id string, at int64) error
}

// imageOf looks at rel on fsys. With follow, a link in the last place is
// followed (as a write would); without, the link itself is described. With
// keep > 0 the content of a file up to keep bytes (or a link's target) is
// returned too; with keep == 0 a file up to hashMax is hashed; with keep < 0
// it is not read at all (size and time only). It never fails: what cannot be
// looked at is EntryUnreadable, and the error says why.
func imageOf(fsys afero.Fs, rel string, follow bool, keep int64) (Image, []byte, error) {
	name := FSName(rel)
	var fi fs.FileInfo
	var err error
	if follow {
		fi, err = fsys.Stat(name)
	} else if l, ok := fsys.(afero.Lstater); ok {
		fi, _, err = l.LstatIfPossible(name)
	} else {
		fi, err = fsys.Stat(name)
	}
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return Image{Kind: EntryAbsent}, nil, nil
	}
	if err != nil {
		return Image{Kind: EntryUnreadable}, nil, err
	}
	img := Image{Mode: fi.Mode().Perm(), ModTime: fi.ModTime()}
	switch {
	case fi.IsDir():
		img.Kind = EntryDir
		return img, nil, nil
	case fi.Mode()&os.ModeSymlink != 0:
		img.Kind = EntryLink
		lr, ok := fsys.(afero.LinkReader)
		if !ok {
			return Image{Kind: EntryUnreadable}, nil, errors.New("symbolic links cannot be read here")
		}
		target, err := lr.ReadlinkIfPossible(name)
		if err != nil {
			return Image{Kind: EntryUnreadable}, nil, err
		}
		sum := sha256.Sum256([]byte(target))
		img.Hash, img.Size = sum[:], int64(len(target))
		return img, []byte(target), nil
	case !fi.Mode().IsRegular():
		return Image{Kind: EntryUnreadable}, nil, errors.New("not a regular file")
	}
	img.Kind, img.Size = EntryFile, fi.Size()
	if keep < 0 {
		return img, nil, nil
	}
	limit := keep
	if limit == 0 {
		limit = hashMax
	}
	if fi.Size() > limit {
		return img, nil, nil
	}
	f, err := fsys.Open(name)
	if err != nil {
		return Image{Kind: EntryUnreadable}, nil, err
	}
	defer f.Close()
	h := sha256.New()
	if keep <= 0 {
		if _, err := io.Copy(h, f); err != nil {
			return Image{Kind: EntryUnreadable}, nil, err
		}
		img.Hash = h.Sum(nil)
		return img, nil, nil
	}
	data, err := io.ReadAll(io.LimitReader(f, keep+1))
	if err != nil {
		return Image{Kind: EntryUnreadable}, nil, err
	}
	if int64(len(data)) > keep { // grew while we looked
		return img, nil, nil
	}
	h.Write(data)
	img.Hash, img.Size = h.Sum(nil), int64(len(data))
	return img, data, nil
}
