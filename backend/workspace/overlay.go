package workspace

import (
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/afero"
)

// overlayFs is a real folder, read-only underneath, with every change kept
// in an in-memory layer on top until the user applies it.
//
// Why not afero.CopyOnWriteFs: it refuses to remove or rename a file that
// lives only in the base (EPERM), keeps showing base files that were
// "removed" (it has no whiteouts), and cannot tell what the model saw of the
// disk, which Apply needs to detect conflicts (see TestCopyOnWriteFsLimits).
// So this type implements the same union idea with:
//
//   - hidden: whiteouts, the clean paths of base entries the model deleted
//     (a hidden folder hides everything under it in the base);
//   - seen: the state of each disk path when the overlay first touched it
//     (read, copied up, deleted, or created where nothing was), which Apply
//     compares with the disk before writing.
//
// Names arrive rooted ("/a/b") from jailFs, already clean.
type overlayFs struct {
	mu     sync.Mutex
	disk   afero.Fs // the real folder, writable: used by Apply only
	base   afero.Fs // the real folder, read-only
	root   *os.Root // the real folder's root, when it is one (resolveRoot)
	layer  afero.Fs // the changes
	hidden map[string]bool
	seen   map[string]diskState
}

// diskState is what a disk path looked like when the overlay first saw it.
type diskState struct {
	exists  bool
	isDir   bool
	size    int64
	modTime time.Time
	hash    [32]byte
	hashed  bool
}

func newOverlayFs(disk afero.Fs) *overlayFs {
	var root *os.Root
	if r, ok := disk.(*rootFs); ok {
		root = r.root
	}
	return &overlayFs{
		root:   root,
		disk:   disk,
		base:   afero.NewReadOnlyFs(disk),
		layer:  afero.NewMemMapFs(),
		hidden: map[string]bool{},
		seen:   map[string]diskState{},
	}
}

var _ afero.Lstater = (*overlayFs)(nil)

func relName(name string) string {
	name = strings.Trim(name, "/")
	if name == "" {
		return "."
	}
	return name
}

const (
	inLayer = 1
	inBase  = 2
)

// errEscapes reads as os.Root's own escape error, so isEscape recognises it.
var errEscapes = errors.New(errPathEscapesText)

// resolve turns rel into the path it really names in the union, following
// the folder's symbolic links the way the disk will when the changes are
// applied (so "link/x" and "target/x" are one file in the layer too).
// followLast says whether a link in the last place is followed (no for
// remove and rename, which act on the link itself). A link that leads
// outside the folder, or an absolute one, fails like os.Root does.
func (o *overlayFs) resolve(rel string, followLast bool) (string, error) {
	lst, ok1 := o.base.(afero.Lstater)
	rl, ok2 := o.base.(afero.LinkReader)
	if !ok1 || !ok2 || rel == "." {
		return rel, nil
	}
	if o.root != nil {
		return o.resolveRoot(rel, followLast)
	}
	return walkLinks(rel, func(cand string, last bool) (string, bool, error) {
		if last && !followLast {
			return "", false, nil
		}
		if _, inL := o.layerHas(cand); inL || !o.baseVisible(cand) {
			return "", false, nil // the layer's own entries are never links
		}
		if fi, _, err := lst.LstatIfPossible(FSName(cand)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return "", false, nil
		}
		target, err := rl.ReadlinkIfPossible(FSName(cand))
		return target, true, err
	})
}

// lstat is stat without following a link in the last place.
func (o *overlayFs) lstat(rel string) (fs.FileInfo, int, error) {
	if fi, err := o.layer.Stat(FSName(rel)); err == nil {
		return fi, inLayer, nil
	}
	if !o.baseVisible(rel) {
		return nil, 0, pathErr("lstat", rel, fs.ErrNotExist)
	}
	if l, ok := o.base.(afero.Lstater); ok {
		fi, _, err := l.LstatIfPossible(FSName(rel))
		if err != nil {
			return nil, 0, err
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			// A link that leads out cannot be removed or moved either.
			if _, err := o.base.Stat(FSName(rel)); isEscape(err) {
				return nil, 0, err
			}
		}
		return fi, inBase, nil
	}
	return o.stat(rel)
}

// path resolves a name given to the Fs.
func (o *overlayFs) path(name string, followLast bool) (string, error) {
	return o.resolve(relName(name), followLast)
}

// baseVisible reports whether no whiteout hides rel in the base.
func (o *overlayFs) baseVisible(rel string) bool {
	for q := rel; ; q = ParentOf(q) {
		if o.hidden[q] {
			return false
		}
		if q == "." {
			return true
		}
	}
}

// stat finds rel in the union: the layer first, then the base unless hidden.
func (o *overlayFs) stat(rel string) (fs.FileInfo, int, error) {
	if fi, err := o.layer.Stat(FSName(rel)); err == nil {
		return fi, inLayer, nil
	}
	if !o.baseVisible(rel) {
		return nil, 0, pathErr("stat", rel, fs.ErrNotExist)
	}
	fi, err := o.base.Stat(FSName(rel))
	if err != nil {
		return nil, 0, err
	}
	return fi, inBase, nil
}

func (o *overlayFs) layerHas(rel string) (fs.FileInfo, bool) {
	fi, err := o.layer.Stat(FSName(rel))
	return fi, err == nil
}

// readDir lists the union of a folder: layer entries, then base entries
// that are neither hidden nor shadowed by the layer. Sorted by name.
func (o *overlayFs) readDir(rel string) ([]fs.FileInfo, error) {
	byName := map[string]fs.FileInfo{}
	layerDir := false
	if fi, ok := o.layerHas(rel); ok && fi.IsDir() {
		layerDir = true
		ents, err := readDirInfos(o.layer, FSName(rel))
		if err != nil {
			return nil, err
		}
		for _, e := range ents {
			byName[e.Name()] = e
		}
	}
	if o.baseVisible(rel) {
		if bfi, err := o.base.Stat(FSName(rel)); err == nil && bfi.IsDir() {
			ents, err := readDirInfos(o.base, FSName(rel))
			if err != nil {
				return nil, err
			}
			for _, e := range ents {
				if _, ok := byName[e.Name()]; ok || o.hidden[JoinPath(rel, e.Name())] {
					continue
				}
				byName[e.Name()] = e
			}
		} else if !layerDir {
			if err == nil {
				err = pathErr("readdir", rel, syscall.ENOTDIR)
			}
			return nil, err
		}
	} else if !layerDir {
		return nil, pathErr("readdir", rel, fs.ErrNotExist)
	}
	out := make([]fs.FileInfo, 0, len(byName))
	for _, e := range byName {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

func readDirInfos(fsys afero.Fs, name string) ([]fs.FileInfo, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdir(-1)
}

// diskStat describes a path on disk now.
func (o *overlayFs) diskStat(rel string, hash bool) (diskState, error) {
	fi, err := o.base.Stat(FSName(rel))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return diskState{}, nil
	}
	if err != nil {
		return diskState{}, err
	}
	st := diskState{exists: true, isDir: fi.IsDir(), size: fi.Size(), modTime: fi.ModTime()}
	if hash && !st.isDir {
		data, err := afero.ReadFile(o.base, FSName(rel))
		if err != nil {
			return diskState{}, err
		}
		st.hash, st.hashed = sha256.Sum256(data), true
	}
	return st, nil
}

// record notes what the disk held at rel the first time the overlay
// touches it. A later record with content adds the hash if the disk did not
// change in between.
func (o *overlayFs) record(rel string, data []byte, fi fs.FileInfo) {
	st, ok := o.seen[rel]
	if !ok {
		if fi == nil {
			s, err := o.diskStat(rel, false)
			if err != nil {
				return
			}
			st = s
		} else {
			st = diskState{exists: true, isDir: fi.IsDir(), size: fi.Size(), modTime: fi.ModTime()}
		}
	}
	if data != nil && st.exists && !st.isDir && !st.hashed && fi != nil &&
		fi.Size() == st.size && fi.ModTime().Equal(st.modTime) {
		st.hash, st.hashed = sha256.Sum256(data), true
	}
	o.seen[rel] = st
}

// copyUp copies a base file into the layer before it changes.
func (o *overlayFs) copyUp(rel string) error {
	bfi, err := o.base.Stat(FSName(rel))
	if err != nil {
		return err
	}
	data, err := afero.ReadFile(o.base, FSName(rel))
	if err != nil {
		return err
	}
	o.record(rel, data, bfi)
	if err := o.ensureLayerDir(ParentOf(rel)); err != nil {
		return err
	}
	if err := afero.WriteFile(o.layer, FSName(rel), data, bfi.Mode().Perm()); err != nil {
		return err
	}
	return o.layer.Chtimes(FSName(rel), bfi.ModTime(), bfi.ModTime())
}

// requireParentDir checks that rel's parent exists in the union as a folder.
func (o *overlayFs) requireParentDir(op, rel string) error {
	p := ParentOf(rel)
	fi, _, err := o.stat(p)
	if err != nil {
		return pathErr(op, rel, fs.ErrNotExist)
	}
	if !fi.IsDir() {
		return pathErr(op, rel, syscall.ENOTDIR)
	}
	return nil
}

func (o *overlayFs) Name() string { return "OverlayFs" }

func (o *overlayFs) Create(name string) (afero.File, error) {
	return o.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (o *overlayFs) Open(name string) (afero.File, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	rel, err := o.path(name, true)
	if err != nil {
		return nil, err
	}
	return o.open(rel)
}

func (o *overlayFs) open(rel string) (afero.File, error) {
	fi, where, err := o.stat(rel)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		ents, err := o.readDir(rel)
		if err != nil {
			return nil, err
		}
		return &dirFile{name: FSName(rel), info: fi, entries: ents}, nil
	}
	if where == inLayer {
		return o.layer.Open(FSName(rel))
	}
	f, err := o.base.Open(FSName(rel))
	if err != nil {
		return nil, err
	}
	o.record(rel, nil, fi)
	return f, nil
}

const writeFlags = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREATE | os.O_TRUNC

func (o *overlayFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	rel, err := o.path(name, true)
	if err != nil {
		return nil, err
	}
	if flag&writeFlags == 0 {
		return o.open(rel)
	}
	fi, where, err := o.stat(rel)
	switch {
	case err == nil && fi.IsDir():
		return nil, pathErr("open", rel, syscall.EISDIR)
	case err == nil && flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0:
		return nil, pathErr("open", rel, fs.ErrExist)
	case err == nil && where == inBase:
		if err := o.copyUp(rel); err != nil {
			return nil, err
		}
	case err == nil:
		// already in the layer
	case errors.Is(err, fs.ErrNotExist):
		if flag&os.O_CREATE == 0 {
			return nil, err
		}
		if err := o.requireParentDir("open", rel); err != nil {
			return nil, err
		}
		o.record(rel, nil, nil)
		if err := o.ensureLayerDir(ParentOf(rel)); err != nil {
			return nil, err
		}
	default:
		return nil, err
	}
	return o.layer.OpenFile(FSName(rel), flag, perm)
}

func (o *overlayFs) Mkdir(name string, perm os.FileMode) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	rel, err := o.path(name, false)
	if err != nil {
		return err
	}
	return o.mkdir(rel, perm)
}

func (o *overlayFs) mkdir(rel string, perm os.FileMode) error {
	if _, _, err := o.lstat(rel); err == nil {
		return pathErr("mkdir", rel, fs.ErrExist)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := o.requireParentDir("mkdir", rel); err != nil {
		return err
	}
	if err := o.ensureLayerDir(ParentOf(rel)); err != nil {
		return err
	}
	return o.layer.Mkdir(FSName(rel), perm)
}

func (o *overlayFs) MkdirAll(name string, perm os.FileMode) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	rel, err := o.path(name, true)
	if err != nil {
		return err
	}
	if rel == "." {
		return nil
	}
	parts := strings.Split(rel, "/")
	for i := range parts {
		p := strings.Join(parts[:i+1], "/")
		fi, _, err := o.stat(p)
		if err == nil {
			if !fi.IsDir() {
				return pathErr("mkdir", p, syscall.ENOTDIR)
			}
			continue
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err := o.mkdir(p, perm); err != nil {
			return err
		}
	}
	return nil
}

// removable is name's path for removing it: anything but the workspace root.
func (o *overlayFs) removable(op, name string) (string, error) {
	rel, err := o.path(name, false)
	if err == nil && rel == "." {
		err = pathErr(op, rel, syscall.EPERM)
	}
	return rel, err
}

func (o *overlayFs) Remove(name string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	rel, err := o.removable("remove", name)
	if err != nil {
		return err
	}
	fi, _, err := o.lstat(rel)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		ents, err := o.readDir(rel)
		if err != nil {
			return err
		}
		if len(ents) > 0 {
			return pathErr("remove", rel, syscall.ENOTEMPTY)
		}
	}
	return o.removeEntry(rel)
}

// removeEntry removes rel (a file or an empty folder of the union) from
// the layer and hides the base entry under it.
func (o *overlayFs) removeEntry(rel string) error {
	if _, ok := o.layerHas(rel); ok {
		if err := o.layer.RemoveAll(FSName(rel)); err != nil {
			return err
		}
	}
	if o.baseVisible(rel) {
		if bfi, err := o.baseLstat(rel); err == nil {
			o.record(rel, nil, bfi)
			o.hidden[rel] = true
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

func (o *overlayFs) Stat(name string) (os.FileInfo, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	rel, err := o.path(name, true)
	if err != nil {
		return nil, err
	}
	fi, _, err := o.stat(rel)
	return fi, err
}

func (o *overlayFs) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	rel, err := o.path(name, false)
	if err != nil {
		return nil, false, err
	}
	if fi, ok := o.layerHas(rel); ok {
		return fi, false, nil
	}
	if !o.baseVisible(rel) {
		return nil, false, pathErr("lstat", rel, fs.ErrNotExist)
	}
	fi, err := o.baseLstat(rel)
	return fi, true, err
}

// baseLstat is Lstat on the base when it can, Stat otherwise.
func (o *overlayFs) baseLstat(rel string) (fs.FileInfo, error) {
	if l, ok := o.base.(afero.Lstater); ok {
		fi, _, err := l.LstatIfPossible(FSName(rel))
		return fi, err
	}
	return o.base.Stat(FSName(rel))
}

// change runs fn on the layer copy of rel (copying it up first).
func (o *overlayFs) change(name string, fn func(layerName string) error) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	rel, err := o.path(name, true)
	if err != nil {
		return err
	}
	fi, where, err := o.stat(rel)
	if err != nil {
		return err
	}
	if where == inBase {
		if fi.IsDir() {
			o.record(rel, nil, fi)
			if err := o.ensureLayerDir(rel); err != nil {
				return err
			}
		} else if err := o.copyUp(rel); err != nil {
			return err
		}
	}
	return fn(FSName(rel))
}

func (o *overlayFs) Chmod(name string, mode os.FileMode) error {
	return o.change(name, func(n string) error { return o.layer.Chmod(n, mode) })
}

func (o *overlayFs) Chown(name string, uid, gid int) error {
	return o.change(name, func(n string) error { return o.layer.Chown(n, uid, gid) })
}

func (o *overlayFs) Chtimes(name string, atime, mtime time.Time) error {
	return o.change(name, func(n string) error { return o.layer.Chtimes(n, atime, mtime) })
}
