package workspace

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/afero"
)

// jailFs is the filesystem every tool sees (Workspace.FS). Each name goes
// through CleanPath before it reaches the filesystem underneath, so a
// hostile name (NUL, "..", a drive letter, a UNC path) never gets further
// than here. Names are rooted at the workspace, afero's convention: "/a/b"
// and "a/b" both mean <root>/a/b; "//host/x" and "/../x" are refused.
type jailFs struct {
	inner afero.Fs
}

var _ afero.Lstater = (*jailFs)(nil)

// jailName cleans a name handed to the Fs and returns it in the inner Fs's
// rooted form.
func jailName(name string) (string, error) {
	s := name
	if strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "//") {
		s = s[1:]
	} else if strings.HasPrefix(s, `\`) && !strings.HasPrefix(s, `\\`) {
		s = s[1:]
	}
	c, err := CleanPath(s)
	if err != nil {
		return "", err
	}
	return FSName(c), nil
}

func (j *jailFs) Name() string { return "AirlockJail(" + j.inner.Name() + ")" }

func (j *jailFs) Create(name string) (afero.File, error) {
	n, err := jailName(name)
	if err != nil {
		return nil, err
	}
	return j.inner.Create(n)
}

func (j *jailFs) Mkdir(name string, perm os.FileMode) error {
	n, err := jailName(name)
	if err != nil {
		return err
	}
	return j.inner.Mkdir(n, perm)
}

func (j *jailFs) MkdirAll(name string, perm os.FileMode) error {
	n, err := jailName(name)
	if err != nil {
		return err
	}
	return j.inner.MkdirAll(n, perm)
}

func (j *jailFs) Open(name string) (afero.File, error) {
	n, err := jailName(name)
	if err != nil {
		return nil, err
	}
	return j.inner.Open(n)
}

func (j *jailFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	n, err := jailName(name)
	if err != nil {
		return nil, err
	}
	return j.inner.OpenFile(n, flag, perm)
}

func (j *jailFs) Remove(name string) error {
	n, err := jailName(name)
	if err != nil {
		return err
	}
	if n == "/" {
		return pathErr("remove", name, syscall.EPERM)
	}
	return j.inner.Remove(n)
}

func (j *jailFs) RemoveAll(name string) error {
	n, err := jailName(name)
	if err != nil {
		return err
	}
	if n == "/" {
		return pathErr("removeall", name, syscall.EPERM)
	}
	return j.inner.RemoveAll(n)
}

func (j *jailFs) Rename(oldname, newname string) error {
	o, err := jailName(oldname)
	if err != nil {
		return err
	}
	n, err := jailName(newname)
	if err != nil {
		return err
	}
	if o == "/" || n == "/" {
		return pathErr("rename", oldname, syscall.EPERM)
	}
	return j.inner.Rename(o, n)
}

func (j *jailFs) Stat(name string) (os.FileInfo, error) {
	n, err := jailName(name)
	if err != nil {
		return nil, err
	}
	return j.inner.Stat(n)
}

func (j *jailFs) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	n, err := jailName(name)
	if err != nil {
		return nil, false, err
	}
	if l, ok := j.inner.(afero.Lstater); ok {
		return l.LstatIfPossible(n)
	}
	fi, err := j.inner.Stat(n)
	return fi, false, err
}

func (j *jailFs) Chmod(name string, mode os.FileMode) error {
	n, err := jailName(name)
	if err != nil {
		return err
	}
	return j.inner.Chmod(n, mode)
}

func (j *jailFs) Chown(name string, uid, gid int) error {
	n, err := jailName(name)
	if err != nil {
		return err
	}
	return j.inner.Chown(n, uid, gid)
}

func (j *jailFs) Chtimes(name string, atime, mtime time.Time) error {
	n, err := jailName(name)
	if err != nil {
		return err
	}
	return j.inner.Chtimes(n, atime, mtime)
}

// rootFs is a real folder seen through os.Root. os.Root resolves every
// component itself (openat with O_NOFOLLOW, on Linux) and refuses any path
// or symbolic link that leads outside the folder, including links swapped in
// while an operation runs: no check-then-use race, unlike an EvalSymlinks
// walk in front of afero.BasePathFs (which does not look at links at all).
//
// Symbolic links: a relative link that stays inside the folder is followed;
// a link that points outside, or any absolute link, is refused whenever it
// would be followed. On top of os.Root, rootFs also refuses to remove,
// rename, chmod or overwrite an escaping link itself, so such a link can be
// seen in a listing (as a link) and nothing else.
type rootFs struct {
	root *os.Root
}

var _ afero.Lstater = (*rootFs)(nil)

func (r *rootFs) rel(name string) string {
	name = strings.TrimLeft(name, "/")
	if name == "" {
		return "."
	}
	return name
}

// refuseEscapingLink fails when the last component of rel is a symbolic
// link whose target is outside the root (for operations that act on a link
// itself instead of following it).
func (r *rootFs) refuseEscapingLink(rel string) error {
	fi, err := r.root.Lstat(rel)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return nil
	}
	if _, err := r.root.Stat(rel); err != nil && isEscape(err) {
		return err
	}
	return nil
}

func (r *rootFs) Name() string { return "RootFs" }

func (r *rootFs) Create(name string) (afero.File, error) {
	return r.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (r *rootFs) Mkdir(name string, perm os.FileMode) error {
	return r.root.Mkdir(r.rel(name), perm)
}

func (r *rootFs) MkdirAll(name string, perm os.FileMode) error {
	rel := r.rel(name)
	if rel == "." {
		return nil
	}
	return r.root.MkdirAll(rel, perm)
}

func (r *rootFs) Open(name string) (afero.File, error) {
	return r.OpenFile(name, os.O_RDONLY, 0)
}

// OpenFile opens regular files and folders only. A pipe would block the
// open or the read for ever, a device (a copy of /dev/zero) never ends:
// the open does not wait (O_NONBLOCK, which regular files ignore) and
// what it opened is checked on the open file itself, so a file swapped
// for a pipe meanwhile is caught too.
func (r *rootFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR) != 0 {
		if f, err := r.replaceWhole(name, flag, perm); f != nil || err != nil {
			return f, err
		}
	}
	f, err := r.root.OpenFile(r.rel(name), flag|syscall.O_NONBLOCK|syscall.O_NOCTTY, perm)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if m := fi.Mode(); !m.IsRegular() && !m.IsDir() {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	return f, nil
}

func (r *rootFs) Remove(name string) error {
	rel := r.rel(name)
	if rel == "." {
		return pathErr("remove", name, syscall.EPERM)
	}
	if err := r.refuseEscapingLink(rel); err != nil {
		return err
	}
	return r.root.Remove(rel)
}

func (r *rootFs) RemoveAll(name string) error {
	rel := r.rel(name)
	if rel == "." {
		return pathErr("removeall", name, syscall.EPERM)
	}
	if err := r.refuseEscapingLink(rel); err != nil {
		return err
	}
	return r.root.RemoveAll(rel)
}

func (r *rootFs) Rename(oldname, newname string) error {
	o, n := r.rel(oldname), r.rel(newname)
	if err := r.refuseEscapingLink(o); err != nil {
		return err
	}
	if err := r.refuseEscapingLink(n); err != nil {
		return err
	}
	return r.root.Rename(o, n)
}

func (r *rootFs) Stat(name string) (os.FileInfo, error) { return r.root.Stat(r.rel(name)) }

func (r *rootFs) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	fi, err := r.root.Lstat(r.rel(name))
	return fi, true, err
}

func (r *rootFs) Chmod(name string, mode os.FileMode) error {
	rel := r.rel(name)
	if err := r.refuseEscapingLink(rel); err != nil {
		return err
	}
	return r.root.Chmod(rel, mode)
}

func (r *rootFs) Chown(name string, uid, gid int) error {
	rel := r.rel(name)
	if err := r.refuseEscapingLink(rel); err != nil {
		return err
	}
	return r.root.Chown(rel, uid, gid)
}

func (r *rootFs) Chtimes(name string, atime, mtime time.Time) error {
	rel := r.rel(name)
	if err := r.refuseEscapingLink(rel); err != nil {
		return err
	}
	return r.root.Chtimes(rel, atime, mtime)
}

var _ afero.LinkReader = (*rootFs)(nil)

// ReadlinkIfPossible returns the target of a symbolic link, as written.
func (r *rootFs) ReadlinkIfPossible(name string) (string, error) {
	return r.root.Readlink(r.rel(name))
}

// replaceWhole makes a truncating write (write_file, edit_file, Undo) to
// a regular file, or to a new one, go to a temporary file in the same
// folder that takes the name's place on Close: a write cut short (the app
// killed midway) leaves the file as it was, never a prefix of the new
// content, and other hard links to the file (one may be outside the
// folder) keep what they held. The file's mode is kept; a symbolic link
// (inside the folder) stays, its target replaced. A write that does not
// truncate a file with other hard links is refused. It returns nil, nil
// for writes that go in place: appends, and opens without O_CREATE of a
// missing file.
func (r *rootFs) replaceWhole(name string, flag int, perm os.FileMode) (afero.File, error) {
	rel := r.rel(name)
	fi, err := r.root.Lstat(rel)
	exists := err == nil
	switch {
	case err != nil && !isMissingErr(err):
		return nil, nil // OpenFile says what is wrong
	case exists && fi.Mode()&os.ModeSymlink != 0:
		// Written through, as a whole file too, at the link's target;
		// a link out of the folder is refused by OpenFile.
		target, err := resolveLinks(r, r, rel)
		if err != nil || target == rel {
			return nil, nil
		}
		return r.replaceWhole(target, flag, perm)
	case exists && !fi.Mode().IsRegular():
		return nil, nil // a folder is refused by OpenFile
	case exists && flag&os.O_TRUNC == 0:
		if linkCount(fi) > 1 {
			return nil, &os.PathError{Op: "open", Path: name, Err: ErrHardLinked}
		}
		return nil, nil
	case exists && flag&os.O_EXCL != 0:
		return nil, &os.PathError{Op: "open", Path: name, Err: fs.ErrExist}
	case !exists && flag&(os.O_CREATE|os.O_TRUNC) != os.O_CREATE|os.O_TRUNC:
		return nil, nil
	}
	mode := perm.Perm()
	if exists {
		mode = fi.Mode().Perm()
	} else if _, err := r.root.Stat(ParentOf(rel)); err != nil {
		return nil, err // no folder to write in: say so as a direct open would
	}
	tmp := TempName(ParentOf(rel))
	f, err := r.root.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return nil, err
	}
	if exists { // the umask must not narrow the mode the file had
		_ = f.Chmod(mode)
	}
	return &renameOnClose{File: f, root: r.root, tmp: tmp, dst: rel}, nil
}

// TempName is a new temporary file's path in the folder dir:
// .airlock-<random>.tmp. Opening a folder clears old ones (sweepTemps).
func TempName(dir string) string {
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	return JoinPath(dir, ".airlock-"+hex.EncodeToString(rnd[:])+".tmp")
}

// ErrHardLinked is why a file with other hard links is not changed in place.
var ErrHardLinked = errors.New("the file has other hard links (one may be outside the folder); it is only ever replaced whole")

// renameOnClose is a new file that takes its name's place when closed.
type renameOnClose struct {
	*os.File
	root     *os.Root
	tmp, dst string
	closed   bool
}

func (f *renameOnClose) Close() error {
	if f.closed {
		return f.File.Close()
	}
	f.closed = true
	err := f.File.Sync() // the content is on disk before the name points at it
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = f.root.Remove(f.tmp)
		return err
	}
	if err := f.root.Rename(f.tmp, f.dst); err != nil {
		_ = f.root.Remove(f.tmp)
		return err
	}
	return nil
}
