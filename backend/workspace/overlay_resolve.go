package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// resolveRoot is resolve over a real folder, linear in the path's depth:
// it keeps a handle on the folder it has reached and asks one name at a
// time (one lstat, one open per folder). Asking os.Root for each whole
// prefix made it quadratic in system calls (each call walks the prefix
// again) and the whiteout check cubic: 6 s for one read at depth 2,047.
func (o *overlayFs) resolveRoot(rel string, followLast bool) (string, error) {
	pending := strings.Split(rel, "/")
	var (
		resolved []string
		prefix   []string // prefix[i] is strings.Join(resolved[:i+1], "/")
		visible  []bool   // visible[i]: no whiteout hides prefix[i] in the base
		dir      = o.root // the base folder at resolved (nil: none there)
		owned    bool     // dir is ours to close
	)
	defer func() {
		if owned {
			dir.Close()
		}
	}()
	setDir := func(d *os.Root) {
		if owned {
			dir.Close()
		}
		dir, owned = d, d != nil && d != o.root
	}
	for hops := 0; len(pending) > 0; {
		c := pending[0]
		pending = pending[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(resolved) == 0 {
				return "", pathErr("resolve", rel, errEscapes)
			}
			resolved, prefix, visible = resolved[:len(resolved)-1], prefix[:len(prefix)-1], visible[:len(visible)-1]
			// Only a link's target says "..": at most 40 of them, each
			// reopening the parent from the top.
			if len(resolved) == 0 {
				setDir(o.root)
			} else if d, err := o.root.OpenRoot(prefix[len(prefix)-1]); err == nil {
				setDir(d)
			} else {
				setDir(nil)
			}
			continue
		}
		cand, parentVisible := c, !o.hidden["."]
		if n := len(prefix); n > 0 {
			cand, parentVisible = prefix[n-1]+"/"+c, visible[n-1]
		}
		vis := parentVisible && !o.hidden[cand]
		if len(pending) == 0 && !followLast {
			resolved, prefix, visible = append(resolved, c), append(prefix, cand), append(visible, vis)
			break
		}
		if _, inL := o.layerHas(cand); !inL && vis && dir != nil {
			if fi, err := dir.Lstat(c); err == nil && fi.Mode()&os.ModeSymlink != 0 {
				if hops++; hops > 40 {
					return "", pathErr("resolve", rel, syscall.ELOOP)
				}
				target, err := dir.Readlink(c)
				if err != nil {
					return "", err
				}
				target = filepath.ToSlash(target)
				if strings.HasPrefix(target, "/") || HasDrive(target) {
					return "", pathErr("resolve", rel, errEscapes)
				}
				pending = append(strings.Split(target, "/"), pending...)
				continue // the target is relative to dir, where we are
			}
		}
		resolved, prefix, visible = append(resolved, c), append(prefix, cand), append(visible, vis)
		if len(pending) > 0 && dir != nil {
			d, err := dir.OpenRoot(c)
			if err != nil {
				d = nil // not a folder in the base: nothing below it there
			}
			setDir(d)
		}
	}
	if len(resolved) == 0 {
		return ".", nil
	}
	return prefix[len(prefix)-1], nil
}

// baseDir is a handle on a folder of the disk while walking down: r open
// (one stat per name), or nil with known set (no such folder on disk), or
// nil and not known (no handle: stat the whole path, as a base that is
// not a real folder needs).
type baseDir struct {
	r     *os.Root
	owned bool
	known bool
}

func (d baseDir) stat(o *overlayFs, name, rel string) (fs.FileInfo, error) {
	switch {
	case d.r != nil:
		return d.r.Stat(name)
	case d.known:
		return nil, fs.ErrNotExist
	}
	return o.base.Stat(FSName(rel))
}

// down is the handle for the child folder name (rel in full); isDir says
// whether it is a folder on disk.
func (d baseDir) down(o *overlayFs, name, rel string, isDir bool) baseDir {
	if d.r == nil {
		return baseDir{known: d.known}
	}
	if !isDir {
		return baseDir{known: true}
	}
	if r, err := d.r.OpenRoot(name); err == nil {
		return baseDir{r: r, owned: true}
	}
	return baseDir{} // out of handles, say: fall back to whole paths
}

func (d baseDir) close() {
	if d.owned {
		d.r.Close()
	}
}

// ensureLayerDir creates rel and its parents in the layer, with the modes
// of the folders they mirror. It walks down from the deepest folder the
// layer has, with a handle on the disk's folder (linear in depth).
func (o *overlayFs) ensureLayerDir(rel string) error {
	var missing []string // deepest first
	top := rel
	for ; top != "."; top = ParentOf(top) {
		if fi, ok := o.layerHas(top); ok {
			if !fi.IsDir() {
				return pathErr("mkdir", top, syscall.ENOTDIR)
			}
			break
		}
		missing = append(missing, top)
	}
	if len(missing) == 0 {
		return nil
	}
	disk := baseDir{}
	if o.root != nil {
		disk = baseDir{r: o.root}
		if top != "." {
			if r, err := o.root.OpenRoot(top); err == nil {
				disk = baseDir{r: r, owned: true}
			} else {
				disk = baseDir{known: true}
			}
		}
	}
	defer func() { disk.close() }()
	vis := o.baseVisible(top)
	for i := len(missing) - 1; i >= 0; i-- {
		child := missing[i]
		name := child[strings.LastIndexByte(child, '/')+1:]
		vis = vis && !o.hidden[child]
		mode, isDir := os.FileMode(0o755), false
		if vis {
			if bfi, err := disk.stat(o, name, child); err == nil && bfi.IsDir() {
				mode, isDir = bfi.Mode().Perm(), true
			}
		}
		if err := o.layer.Mkdir(FSName(child), mode); err != nil {
			return err
		}
		if i > 0 {
			next := disk.down(o, name, child, isDir)
			disk.close()
			disk = next
		}
	}
	return nil
}
