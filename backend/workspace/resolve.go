package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/afero"
)

// Resolve says where a path given to the tools leads inside the workspace:
// cleaned as every tool path is (CleanPath), then with the symbolic links
// it passes through followed, the way the jailed filesystem follows them
// (an overlay's own files hide the links under them). Parts that do not
// exist yet are kept as written. A link that leads outside the workspace,
// an absolute link, or a loop is an error. Rules on paths match on this,
// so "docs/../secrets" and a link docs/x → ../secrets cannot widen them.
func (w *Workspace) Resolve(p string) (string, error) {
	clean, err := CleanPath(p)
	if err != nil {
		return "", err
	}
	var out string
	switch {
	case w.overlay != nil:
		w.overlay.mu.Lock()
		out, err = w.overlay.resolve(clean, true)
		w.overlay.mu.Unlock()
	case w.root != nil:
		r := &rootFs{root: w.root}
		out, err = resolveLinks(r, r, clean)
	default:
		return clean, nil // scratch: no links
	}
	if err != nil {
		return "", FSError(clean, err)
	}
	return CleanPath(out)
}

// resolveLinks follows the links of a clean path through lst and rl.
func resolveLinks(lst afero.Lstater, rl afero.LinkReader, rel string) (string, error) {
	return walkLinks(rel, func(cand string, _ bool) (string, bool, error) {
		fi, _, err := lst.LstatIfPossible(FSName(cand))
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return "", false, nil // a file, a folder, or not there (yet)
		}
		target, err := rl.ReadlinkIfPossible(FSName(cand))
		return target, true, err
	})
}

// walkLinks resolves a clean path one name at a time: readLink says whether
// cand (last: the path's final name) is a link and where it points. "..",
// absolute targets and more than 40 links fail as escapes and loops do.
func walkLinks(rel string, readLink func(cand string, last bool) (target string, isLink bool, err error)) (string, error) {
	if rel == "." {
		return rel, nil
	}
	pending := strings.Split(rel, "/")
	resolved := make([]string, 0, len(pending))
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
			resolved = resolved[:len(resolved)-1]
			continue
		}
		cand := strings.Join(append(resolved, c), "/")
		target, isLink, err := readLink(cand, len(pending) == 0)
		if err != nil {
			return "", err
		}
		if !isLink {
			resolved = append(resolved, c)
			continue
		}
		if hops++; hops > 40 {
			return "", pathErr("resolve", rel, syscall.ELOOP)
		}
		target = filepath.ToSlash(target)
		if strings.HasPrefix(target, "/") || HasDrive(target) {
			return "", pathErr("resolve", rel, errEscapes)
		}
		pending = append(strings.Split(target, "/"), pending...)
	}
	if len(resolved) == 0 {
		return ".", nil
	}
	return strings.Join(resolved, "/"), nil
}
