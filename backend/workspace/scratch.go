package workspace

import (
	"io"
	"io/fs"
	"os"
	"sort"
	"time"

	"github.com/spf13/afero"

	"airlock/backend/chat"
)

// ScratchMaxBytes caps the total size of the files of a scratch workspace
// (it lives in memory and is saved in SQLite).
const ScratchMaxBytes = 100 << 20

// File is one entry of a scratch snapshot, the form the store saves.
type File struct {
	Path    string      `json:"path"` // clean, relative to the root ("src/main.go")
	IsDir   bool        `json:"isDir,omitempty"`
	Mode    fs.FileMode `json:"mode"` // permission bits only
	ModTime time.Time   `json:"modTime"`
	Content []byte      `json:"content,omitempty"`
}

func scratchFull(total int64) error {
	return errf(CodeTooLarge, chat.ErrInvalid,
		"the scratch workspace is full: it holds at most %s and this would bring it to %s; delete files, or use a folder workspace",
		HumanSize(ScratchMaxBytes), HumanSize(total))
}

// Snapshot lists every folder and file of fsys (sorted, parents first) with
// its content, for the store to save. It fails when the files add up to
// more than ScratchMaxBytes. Anything that is neither a regular file nor a
// folder is left out.
func Snapshot(fsys afero.Fs) ([]File, error) { return snapshot(fsys, ScratchMaxBytes) }

// snapshot is Snapshot with another cap (none when limit <= 0).
func snapshot(fsys afero.Fs, limit int64) ([]File, error) {
	var out []File
	var total int64
	err := afero.Walk(fsys, "/", func(name string, fi fs.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel := relName(name)
		if rel == "." {
			return nil
		}
		f := File{Path: rel, IsDir: fi.IsDir(), Mode: fi.Mode().Perm(), ModTime: fi.ModTime()}
		if !fi.IsDir() {
			if !fi.Mode().IsRegular() {
				return nil
			}
			total += fi.Size()
			if limit > 0 && total > limit {
				return scratchFull(total)
			}
			data, err := afero.ReadFile(fsys, name)
			if err != nil {
				return err
			}
			f.Content = data
		}
		out = append(out, f)
		return nil
	})
	if err != nil {
		return nil, FSError(".", err)
	}
	return out, nil
}

// Restore rebuilds an in-memory filesystem from a snapshot. Paths are
// checked like any other (a tampered snapshot cannot name "../x"), and the
// total size is capped like a live scratch workspace.
func Restore(files []File) (afero.Fs, error) {
	return restore(files, ScratchMaxBytes, "scratch workspace")
}

// restore is Restore with another cap (none when limit <= 0), naming what
// was saved in its errors.
func restore(files []File, limit int64, what string) (afero.Fs, error) {
	mem := afero.NewMemMapFs()
	var total int64
	for _, f := range files {
		if !f.IsDir {
			total += int64(len(f.Content))
		}
	}
	if limit > 0 && total > limit {
		return nil, scratchFull(total)
	}
	sorted := append([]File(nil), files...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	for _, f := range sorted {
		c, err := CleanPath(f.Path)
		if err != nil {
			return nil, errf(CodePathInvalid, err, "the saved %s has a bad entry: %v", what, err)
		}
		if c == "." {
			continue
		}
		mode := f.Mode.Perm()
		if f.IsDir {
			if mode == 0 {
				mode = 0o755
			}
			if err := mem.MkdirAll(FSName(c), mode); err != nil {
				return nil, FSError(c, err)
			}
			continue
		}
		if mode == 0 {
			mode = 0o644
		}
		if err := mem.MkdirAll(FSName(ParentOf(c)), 0o755); err != nil {
			return nil, FSError(c, err)
		}
		if err := afero.WriteFile(mem, FSName(c), f.Content, mode); err != nil {
			return nil, FSError(c, err)
		}
	}
	// Modes and times last, deepest first: creating a child touches its folder.
	for i := len(sorted) - 1; i >= 0; i-- {
		f := sorted[i]
		c, _ := CleanPath(f.Path)
		if c == "." {
			continue
		}
		if f.IsDir && f.Mode.Perm() != 0 {
			_ = mem.Chmod(FSName(c), f.Mode.Perm())
		}
		if !f.ModTime.IsZero() {
			_ = mem.Chtimes(FSName(c), f.ModTime, f.ModTime)
		}
	}
	return mem, nil
}

// quotaFs caps the total size of the files of an in-memory filesystem.
type quotaFs struct {
	afero.Fs
	limit int64
}

func (q *quotaFs) usage() int64 {
	var n int64
	_ = afero.Walk(q.Fs, "/", func(_ string, fi fs.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			n += fi.Size()
		}
		return nil
	})
	return n
}

func (q *quotaFs) Create(name string) (afero.File, error) {
	return q.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (q *quotaFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	f, err := q.Fs.OpenFile(name, flag, perm)
	if err != nil || flag&writeFlags == 0 {
		return f, err
	}
	fi, err := f.Stat()
	if err != nil || fi.IsDir() {
		return f, err
	}
	others := q.usage() - fi.Size()
	return &quotaFile{File: f, others: others, limit: q.limit, size: fi.Size(), appendOnly: flag&os.O_APPEND != 0}, nil
}

// quotaFile refuses a write that would take the filesystem over its limit.
type quotaFile struct {
	afero.File
	others, limit, size int64
	appendOnly          bool
}

func (f *quotaFile) grow(end int64) error {
	if end <= f.size {
		return nil
	}
	if f.others+end > f.limit {
		return scratchFull(f.others + end)
	}
	f.size = end
	return nil
}

func (f *quotaFile) Write(p []byte) (int, error) {
	pos := f.size
	if !f.appendOnly {
		var err error
		if pos, err = f.File.Seek(0, io.SeekCurrent); err != nil {
			return 0, err
		}
	}
	if err := f.grow(pos + int64(len(p))); err != nil {
		return 0, err
	}
	return f.File.Write(p)
}

func (f *quotaFile) WriteAt(p []byte, off int64) (int, error) {
	if err := f.grow(off + int64(len(p))); err != nil {
		return 0, err
	}
	return f.File.WriteAt(p, off)
}

func (f *quotaFile) WriteString(s string) (int, error) { return f.Write([]byte(s)) }

func (f *quotaFile) Truncate(size int64) error {
	if err := f.grow(size); err != nil {
		return err
	}
	if err := f.File.Truncate(size); err != nil {
		return err
	}
	f.size = size
	return nil
}
