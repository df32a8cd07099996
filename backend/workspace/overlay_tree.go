package workspace

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"github.com/spf13/afero"
)

// Operations of the overlay on whole trees: remove, rename, copy.

func (o *overlayFs) RemoveAll(name string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	rel, err := o.removable("removeall", name)
	if err != nil {
		return err
	}
	return o.removeAll(rel)
}

func (o *overlayFs) removeAll(rel string) error {
	fi, _, err := o.lstat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if fi.IsDir() {
		ents, err := o.readDir(rel)
		if err != nil {
			return err
		}
		for _, e := range ents {
			if err := o.removeAll(JoinPath(rel, e.Name())); err != nil {
				return err
			}
		}
	}
	return o.removeEntry(rel)
}

// Rename moves a file or folder of the union. Whatever lies in the base is
// copied into the layer at the new place and hidden at the old one.
func (o *overlayFs) Rename(oldname, newname string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	src, err := o.path(oldname, false)
	if err != nil {
		return err
	}
	dst, err := o.path(newname, false)
	if err != nil {
		return err
	}
	if src == "." || dst == "." {
		return &os.LinkError{Op: "rename", Old: src, New: dst, Err: syscall.EPERM}
	}
	if src == dst {
		return nil
	}
	sfi, _, err := o.lstat(src)
	if err != nil {
		return err
	}
	if sfi.IsDir() && Within(dst, src) {
		return &os.LinkError{Op: "rename", Old: src, New: dst, Err: syscall.EINVAL}
	}
	// Everything under src must be readable before anything changes, so a
	// failure (say, a link inside that leads out) leaves no half-done move.
	if err := o.checkTree(src); err != nil {
		return err
	}
	if dfi, _, err := o.lstat(dst); err == nil {
		switch {
		case dfi.IsDir() && !sfi.IsDir():
			return &os.LinkError{Op: "rename", Old: src, New: dst, Err: syscall.EISDIR}
		case !dfi.IsDir() && sfi.IsDir():
			return &os.LinkError{Op: "rename", Old: src, New: dst, Err: syscall.ENOTDIR}
		case dfi.IsDir():
			if ents, err := o.readDir(dst); err != nil {
				return err
			} else if len(ents) > 0 {
				return &os.LinkError{Op: "rename", Old: src, New: dst, Err: syscall.ENOTEMPTY}
			}
		}
		if err := o.removeEntry(dst); err != nil {
			return err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := o.requireParentDir("rename", dst); err != nil {
		return err
	}
	if err := o.copyTree(src, dst); err != nil {
		return err
	}
	return o.removeAll(src)
}

// checkTree stats everything under rel, following links as copyTree will.
func (o *overlayFs) checkTree(rel string) error {
	fi, _, err := o.stat(rel)
	if err != nil || !fi.IsDir() {
		return err
	}
	ents, err := o.readDir(rel)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if err := o.checkTree(JoinPath(rel, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// copyTree copies src (file or folder, as the union shows it) to dst in
// the layer.
func (o *overlayFs) copyTree(src, dst string) error {
	fi, where, err := o.stat(src)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		if _, _, err := o.stat(dst); errors.Is(err, fs.ErrNotExist) {
			o.record(dst, nil, nil)
		}
		if err := o.ensureLayerDir(dst); err != nil {
			return err
		}
		ents, err := o.readDir(src)
		if err != nil {
			return err
		}
		for _, e := range ents {
			if err := o.copyTree(JoinPath(src, e.Name()), JoinPath(dst, e.Name())); err != nil {
				return err
			}
		}
		return nil
	}
	var data []byte
	if where == inLayer {
		data, err = afero.ReadFile(o.layer, FSName(src))
	} else {
		data, err = afero.ReadFile(o.base, FSName(src))
		if err == nil {
			o.record(src, data, fi)
		}
	}
	if err != nil {
		return err
	}
	if _, ok := o.seen[dst]; !ok {
		o.record(dst, nil, nil)
	}
	if err := o.ensureLayerDir(ParentOf(dst)); err != nil {
		return err
	}
	if err := afero.WriteFile(o.layer, FSName(dst), data, fi.Mode().Perm()); err != nil {
		return err
	}
	return o.layer.Chtimes(FSName(dst), fi.ModTime(), fi.ModTime())
}
