package files

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/afero"

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
		return nil, coded(workspace.CodeIsDirectory, txtWriteRoot)
	}
	if len(a.Content) > MaxWriteBytes {
		return nil, coded(workspace.CodeTooLarge, txtWriteTooLarge,
			"size", workspace.HumanSizeText(int64(len(a.Content))), "max", workspace.HumanSizeText(MaxWriteBytes))
	}
	pl := &writePlan{path: p, data: a.Content, mode: 0o644}
	fi, err := fsys.Stat(workspace.FSName(p))
	switch {
	case err == nil && fi.IsDir():
		return nil, coded(workspace.CodeIsDirectory, txtWriteIsFolder, "path", p)
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
		pv.say(txtCreate, "path", pl.path, "lines", counted(int64(lines), txtOneLine, txtLines), "size", workspace.HumanSizeText(int64(len(pl.data))))
		pv.Diff = capDiff(workspace.UnifiedDiff("/dev/null", "b/"+pl.path, "", pl.data))
	case pl.binary:
		pv.say(txtReplaceBinary, "path", pl.path, "lines", counted(int64(lines), txtOneLine, txtLines),
			"size", workspace.HumanSizeText(int64(len(pl.data))))
	case pl.old == pl.data:
		pv.say(txtRewriteSame, "path", pl.path)
	default:
		pv.Diff = capDiff(workspace.UnifiedDiff("a/"+pl.path, "b/"+pl.path, pl.old, pl.data))
		add, del := diffStat(pv.Diff)
		pv.say(txtOverwrite, "path", pl.path, "added", add, "removed", del)
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
