package files

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/afero"

	"airlock/backend/chat"
	"airlock/backend/tools"
	"airlock/backend/workspace"
)

type writeFileArgs struct {
	Path    string `json:"path" airlock:"path" jsonschema:"File to write, relative to the workspace root. Example: \"docs/plan.md\"."`
	Content string `json:"content" jsonschema:"The complete new content of the file."`
}

var writeFileDescription = "Create a file, or replace the whole content of an existing one. Path is relative to the workspace " +
	"root, e.g. \"notes.md\" or \"src/util/strings.go\"; missing folders are created. The content is written " +
	"exactly as given (include the final newline if you want one). To change part of an existing file, prefer " +
	"edit_file: it is shorter and cannot lose the rest of the file. At most " + workspace.HumanSize(MaxWriteBytes) +
	" per call. The user sees a diff and approves before anything is written."

func writeFile() tools.Tool {
	return fileTool("write_file", writeFileDescription, runWriteFile, previewWriteFile)
}

type writePlan struct {
	path   string
	old    string // current content ("" when new)
	exists bool
	binary bool // the current content is binary
	mode   os.FileMode
	data   string
}

func planWrite(fsys afero.Fs, a writeFileArgs) (*writePlan, error) {
	p, err := workspace.CleanPath(a.Path)
	if err != nil {
		return nil, err
	}
	if p == "." {
		return nil, errf(workspace.CodeIsDirectory, chat.ErrInvalid, "write_file needs a file path, not the workspace root")
	}
	if len(a.Content) > MaxWriteBytes {
		return nil, errf(workspace.CodeTooLarge, chat.ErrInvalid, "the content is %s; write_file accepts at most %s per call",
			workspace.HumanSize(int64(len(a.Content))), workspace.HumanSize(MaxWriteBytes))
	}
	pl := &writePlan{path: p, data: a.Content, mode: 0o644}
	fi, err := fsys.Stat(workspace.FSName(p))
	switch {
	case err == nil && fi.IsDir():
		return nil, errf(workspace.CodeIsDirectory, chat.ErrInvalid, "%s is a folder; choose a file name inside it", p)
	case err == nil:
		pl.exists, pl.mode = true, fi.Mode().Perm()
		if fi.Size() <= workspace.MaxDiffInputBytes {
			data, err := afero.ReadFile(fsys, workspace.FSName(p))
			if err != nil {
				return nil, workspace.FSError(p, err)
			}
			pl.binary = workspace.IsBinary(data)
			pl.old = string(data)
		} else {
			pl.binary = true // too large to show: treat like binary in the preview
		}
	case isMissing(err):
		if err := checkParentWritable(fsys, p); err != nil {
			return nil, err
		}
	default:
		return nil, workspace.FSError(p, err)
	}
	return pl, nil
}

func previewWriteFile(fsys afero.Fs, a writeFileArgs) (Preview, error) {
	pl, err := planWrite(fsys, a)
	if err != nil {
		return Preview{}, err
	}
	lines := countLines(pl.data)
	pv := Preview{Path: pl.path}
	switch {
	case !pl.exists:
		pv.Summary = fmt.Sprintf("Create %s (%s, %s)", pl.path, plural(int64(lines), "line", "lines"), workspace.HumanSize(int64(len(pl.data))))
		pv.Diff = capDiff(workspace.UnifiedDiff("/dev/null", "b/"+pl.path, "", pl.data))
	case pl.binary:
		pv.Summary = fmt.Sprintf("Replace %s, a binary or very large file, with %s of text (%s)",
			pl.path, plural(int64(lines), "line", "lines"), workspace.HumanSize(int64(len(pl.data))))
	case pl.old == pl.data:
		pv.Summary = fmt.Sprintf("Rewrite %s with the same content (no change)", pl.path)
	default:
		pv.Diff = capDiff(workspace.UnifiedDiff("a/"+pl.path, "b/"+pl.path, pl.old, pl.data))
		add, del := diffStat(pv.Diff)
		pv.Summary = fmt.Sprintf("Overwrite %s: +%d −%d lines", pl.path, add, del)
	}
	return pv, nil
}

func runWriteFile(_ context.Context, fsys afero.Fs, a writeFileArgs) (string, error) {
	pl, err := planWrite(fsys, a)
	if err != nil {
		return "", err
	}
	if err := fsys.MkdirAll(workspace.FSName(workspace.ParentOf(pl.path)), 0o755); err != nil {
		return "", workspace.FSError(workspace.ParentOf(pl.path), err)
	}
	if err := afero.WriteFile(fsys, workspace.FSName(pl.path), []byte(pl.data), pl.mode); err != nil {
		return "", workspace.FSError(pl.path, err)
	}
	size := fmt.Sprintf("%s, %s", plural(int64(countLines(pl.data)), "line", "lines"), workspace.HumanSize(int64(len(pl.data))))
	if !pl.exists {
		return fmt.Sprintf("Created %s (%s).", pl.path, size), nil
	}
	if pl.binary {
		return fmt.Sprintf("Replaced %s (%s).", pl.path, size), nil
	}
	return fmt.Sprintf("Replaced the content of %s (%s; it had %s).", pl.path, size,
		plural(int64(countLines(pl.old)), "line", "lines")), nil
}
