package code

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"

	"github.com/spf13/afero"

	"airlock/backend/workspace"
)

// runFS is the chat's workspace as one run sees it: paths are inside the
// workspace ("/" is its root, ".." cannot leave it), a read-only run cannot
// change anything, and a run that changes more files or writes more bytes
// than its bounds allow is refused. It remembers what each changed path
// held before, so the card can show what the run changed.
//
// Every change goes to the chat's afero filesystem, as the file tools'
// do: the overlay layer, the folder checkpoint and the Changes view see it.
type runFS struct {
	fs       afero.Fs
	readOnly bool
	b        Bounds

	mu      sync.Mutex
	before  map[string]*prior
	order   []string
	written int64
	refused int   // writes refused because the run is read-only
	hit     error // the first bound the run hit (errFiles, errWrite)
}

// prior is what a path held before the run first changed it.
type prior struct {
	exists, dir bool
	known       bool // data holds the whole content (small enough to diff)
	data        []byte
}

var (
	errReadOnly = errors.New("this run is read-only: the code may read files but not change them")
	errOutside  = errors.New("the path leads outside the workspace; the code sees only the workspace (\"/\" is its root)")
)

type boundErr struct{ name, msg string }

func (e *boundErr) Error() string { return e.msg }

func newRunFS(fsys afero.Fs, readOnly bool, b Bounds) *runFS {
	return &runFS{fs: fsys, readOnly: readOnly, b: b, before: map[string]*prior{}}
}

// clean turns a path the code gave into a clean workspace path ("." for
// the root). A leading "/" is the workspace root; ".." may not leave it.
func (r *runFS) clean(p string) (string, error) {
	s := strings.ReplaceAll(p, `\`, "/")
	s = strings.TrimLeft(s, "/")
	if s == "" {
		return ".", nil
	}
	c, err := workspace.CleanPath(s)
	if err != nil {
		if workspace.Code(err) == workspace.CodePathOutside {
			return "", errOutside
		}
		return "", err
	}
	if c == "" {
		c = "."
	}
	return c, nil
}

func name(clean string) string { return workspace.FSName(clean) }

// bound is the first bound the run hit, if any.
func (r *runFS) bound() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hit
}

func (r *runFS) boundName() string {
	var be *boundErr
	if errors.As(r.bound(), &be) {
		return be.name
	}
	return ""
}

// touch is called before a path is changed: it refuses in a read-only run
// or past the files bound, and remembers what the path holds now.
func (r *runFS) touch(clean string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.readOnly {
		r.refused++
		return errReadOnly
	}
	if clean == "." {
		return errOutside
	}
	if r.before[clean] != nil {
		return nil
	}
	if len(r.before) >= r.b.MaxFiles {
		return r.fail(&boundErr{BoundFiles, fmt.Sprintf("the run may change at most %d files (the files-written bound in Settings)", r.b.MaxFiles)})
	}
	p := &prior{}
	if fi, err := r.fs.Stat(name(clean)); err == nil {
		p.exists, p.dir = true, fi.IsDir()
		if !p.dir && fi.Size() <= workspace.MaxDiffInputBytes {
			if data, err := afero.ReadFile(r.fs, name(clean)); err == nil {
				p.known, p.data = true, data
			}
		}
	}
	r.before[clean] = p
	r.order = append(r.order, clean)
	return nil
}

// wrote counts n bytes about to be written; past the bound it refuses.
func (r *runFS) wrote(n int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.written+int64(n) > r.b.WriteBytes {
		return r.fail(&boundErr{BoundWrite, fmt.Sprintf("the run may write at most %s (the bytes-written bound in Settings)", workspace.HumanSize(r.b.WriteBytes))})
	}
	r.written += int64(n)
	return nil
}

func (r *runFS) fail(err error) error {
	if r.hit == nil {
		r.hit = err
	}
	return err
}

const writeFlags = os.O_WRONLY | os.O_RDWR | os.O_CREATE | os.O_TRUNC | os.O_APPEND

// open opens a workspace file; flags that write go through touch.
func (r *runFS) open(p string, flag int, perm os.FileMode) (afero.File, string, error) {
	c, err := r.clean(p)
	if err != nil {
		return nil, "", err
	}
	if flag&writeFlags != 0 {
		if err := r.touch(c); err != nil {
			return nil, c, err
		}
		if flag&os.O_CREATE != 0 {
			if err := r.fs.MkdirAll(name(workspace.ParentOf(c)), 0o755); err != nil && !os.IsExist(err) {
				return nil, c, err
			}
		}
	}
	f, err := r.fs.OpenFile(name(c), flag, perm)
	if err != nil {
		return nil, c, err
	}
	if flag&writeFlags != 0 {
		return &quotaFile{File: f, r: r}, c, nil
	}
	return f, c, nil
}

func (r *runFS) stat(p string) (os.FileInfo, error) {
	c, err := r.clean(p)
	if err != nil {
		return nil, err
	}
	return r.fs.Stat(name(c))
}

func (r *runFS) lstat(p string) (os.FileInfo, error) {
	c, err := r.clean(p)
	if err != nil {
		return nil, err
	}
	if l, ok := r.fs.(afero.Lstater); ok {
		fi, _, err := l.LstatIfPossible(name(c))
		return fi, err
	}
	return r.fs.Stat(name(c))
}

func (r *runFS) mkdir(p string, all bool) error {
	c, err := r.clean(p)
	if err != nil {
		return err
	}
	if err := r.touch(c); err != nil {
		return err
	}
	if all {
		return r.fs.MkdirAll(name(c), 0o755)
	}
	return r.fs.Mkdir(name(c), 0o755)
}

// remove deletes a file or an empty folder.
func (r *runFS) remove(p string) error {
	c, err := r.clean(p)
	if err != nil {
		return err
	}
	if err := r.touch(c); err != nil {
		return err
	}
	return r.fs.Remove(name(c))
}

func (r *runFS) rename(from, to string) error {
	f, err := r.clean(from)
	if err != nil {
		return err
	}
	t, err := r.clean(to)
	if err != nil {
		return err
	}
	if err := r.touch(f); err != nil {
		return err
	}
	if err := r.touch(t); err != nil {
		return err
	}
	return r.fs.Rename(name(f), name(t))
}

func (r *runFS) truncate(p string, size int64) error {
	f, _, err := r.open(p, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Truncate(size)
}

// quotaFile counts the bytes written through it against the run's bound.
type quotaFile struct {
	afero.File
	r *runFS
}

func (q *quotaFile) Write(b []byte) (int, error) {
	if err := q.r.wrote(len(b)); err != nil {
		return 0, err
	}
	return q.File.Write(b)
}

func (q *quotaFile) WriteAt(b []byte, off int64) (int, error) {
	if err := q.r.wrote(len(b)); err != nil {
		return 0, err
	}
	return q.File.WriteAt(b, off)
}

func (q *quotaFile) WriteString(s string) (int, error) { return q.Write([]byte(s)) }

func (q *quotaFile) Truncate(size int64) error {
	if fi, err := q.File.Stat(); err == nil && size > fi.Size() {
		if err := q.r.wrote(int(size - fi.Size())); err != nil {
			return err
		}
	}
	return q.File.Truncate(size)
}

// Diffs on the card are cut past these.
const (
	maxDiffBytes      = 16 << 10 // one file's diff
	maxAllDiffBytes   = 64 << 10 // all the files' diffs together
	maxReportedChange = 200      // files listed
)

// changes lists what the run changed, with diffs where both sides are
// small text; the bytes written; the writes refused as read-only.
func (r *runFS) changes() ([]FileChange, int64, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []FileChange
	budget := maxAllDiffBytes
	for _, c := range r.order {
		if len(out) == maxReportedChange {
			break
		}
		was := r.before[c]
		fc := FileChange{Path: c}
		fi, err := r.fs.Stat(name(c))
		now := err == nil
		switch {
		case !was.exists && !now:
			continue
		case !now:
			fc.Change = "deleted"
		case !was.exists:
			fc.Change = "created"
		default:
			fc.Change = "modified"
		}
		if now && fi.IsDir() {
			if fc.Change == "modified" {
				continue // a folder that was there and still is
			}
			fc.Path += "/"
			out = append(out, fc)
			continue
		}
		var newData []byte
		newKnown := false
		if now {
			fc.Size = fi.Size()
			if fi.Size() <= workspace.MaxDiffInputBytes {
				if d, err := afero.ReadFile(r.fs, name(c)); err == nil {
					newData, newKnown = d, true
				}
			}
		}
		if fc.Change == "modified" && was.known && newKnown && string(was.data) == string(newData) {
			continue // rewritten with the same content
		}
		oldKnown := was.known || !was.exists
		if oldKnown && (newKnown || !now) && !workspace.IsBinary(was.data) && !workspace.IsBinary(newData) && budget > 0 {
			from, to := "a/"+c, "b/"+c
			if !was.exists {
				from = "/dev/null"
			}
			if !now {
				to = "/dev/null"
			}
			d := workspace.UnifiedDiff(from, to, string(was.data), string(newData))
			limit := min(maxDiffBytes, budget)
			if len(d) > limit {
				d = d[:limit] + "\n[diff cut]\n"
			}
			budget -= len(d)
			fc.Diff = d
		}
		out = append(out, fc)
	}
	return out, r.written, r.refused
}

// errno-like classification shared by the engines' adapters.
func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
