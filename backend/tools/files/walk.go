package files

import (
	"context"
	"errors"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/spf13/afero"

	"airlock/backend/workspace"
)

// Walking a tree of the workspace, for list_directory, search_files,
// find_files and the previews of moves and deletions.

// skipDirs are not descended into by a recursive listing, search or find
// unless the walk starts inside them.
var skipDirs = map[string]bool{".git": true, "node_modules": true}

type walkEntry struct {
	path    string // clean, relative to the workspace root
	info    fs.FileInfo
	depth   int  // 1 = a direct child of the start
	skipped bool // a skipDirs folder that will not be descended into
}

var (
	errSkipDir = errors.New("skip this folder")
	errStop    = errors.New("stop walking")
)

// walk visits the tree under start in sorted order, folders before their
// contents, down to maxDepth levels (0 = no limit). fn may return errSkipDir
// for a folder, or errStop. Folders that cannot be read are passed over.
func walk(ctx context.Context, fsys afero.Fs, start string, maxDepth int, noSkip bool, fn func(walkEntry) error) error {
	var visit func(dir string, depth int) error
	visit = func(dir string, depth int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		f, err := fsys.Open(workspace.FSName(dir))
		if err != nil {
			if depth == 1 {
				return workspace.FSError(dir, err)
			}
			return nil
		}
		infos, err := f.Readdir(-1)
		f.Close()
		if err != nil && depth == 1 {
			return workspace.FSError(dir, err)
		}
		sort.Slice(infos, func(i, j int) bool { return infos[i].Name() < infos[j].Name() })
		for _, fi := range infos {
			e := walkEntry{path: workspace.JoinPath(dir, fi.Name()), info: fi, depth: depth}
			isDir := fi.IsDir()
			if isDir && !noSkip && skipDirs[fi.Name()] {
				e.skipped = true
			}
			err := fn(e)
			if err == errSkipDir {
				continue
			}
			if err != nil {
				return err
			}
			if isDir && !e.skipped && (maxDepth == 0 || depth < maxDepth) {
				if err := visit(e.path, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	err := visit(start, 1)
	if err == errStop {
		return nil
	}
	return err
}

// mentionsSkipped reports a path or pattern naming one of skipDirs: then
// the walk goes into them.
func mentionsSkipped(ss ...string) bool {
	for _, s := range ss {
		for d := range skipDirs {
			if strings.Contains(s, d) {
				return true
			}
		}
	}
	return false
}

// globMatcher matches a path relative to the search root. A pattern
// without "/" matches the last component at any depth.
func globMatcher(glob string) (func(rel string) bool, error) {
	g := strings.TrimPrefix(strings.TrimSpace(glob), "./")
	if g == "" {
		return func(string) bool { return true }, nil
	}
	if strings.HasPrefix(g, "/") || workspace.HasDrive(g) {
		return nil, coded(CodeBadPattern, txtGlobAbsolute, "glob", strconv.Quote(glob))
	}
	if !doublestar.ValidatePattern(g) {
		return nil, coded(CodeBadPattern, txtGlobInvalid, "glob", strconv.Quote(glob))
	}
	if !strings.Contains(g, "/") {
		return func(rel string) bool { return doublestar.MatchUnvalidated(g, baseOf(rel)) }, nil
	}
	return func(rel string) bool { return doublestar.MatchUnvalidated(g, rel) }, nil
}

type treeStat struct{ files, dirs, bytes int64 }

// treeStats counts what lies under p, for the previews and reports of
// folder moves and deletions.
func treeStats(fsys afero.Fs, p string) treeStat {
	var st treeStat
	_ = walk(context.Background(), fsys, p, 0, true, func(e walkEntry) error {
		if e.info.IsDir() {
			st.dirs++
		} else {
			st.files++
			st.bytes += e.info.Size()
		}
		return nil
	})
	return st
}
