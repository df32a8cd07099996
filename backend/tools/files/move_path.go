package files

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/spf13/afero"

	"airlock/backend/tools"
	"airlock/backend/workspace"
)

type movePathArgs struct {
	Source      string   `json:"source" airlock:"path" jsonschema:"File or folder to move, relative to the workspace root. Example: \"old/name.txt\"."`
	Destination string   `json:"destination" airlock:"path" jsonschema:"New path, or an existing folder to move into. Example: \"new/name.txt\"."`
	Overwrite   flexBool `json:"overwrite,omitempty" jsonschema:"Replace an existing file at the destination. Default false."`
}

const movePathDescription = "Move or rename a file or folder inside the workspace. Both paths are relative to the workspace root. " +
	"\"notes.txt\" → \"notes.md\" renames; \"draft.md\" → \"docs\" moves the file into the existing folder docs " +
	"(as docs/draft.md); missing parent folders of the destination are created. An existing file at the " +
	"destination is only replaced when overwrite is true (its content is lost); an existing folder is never " +
	"replaced. The user approves before anything moves."

func movePath() tools.Tool {
	return fileTool("move_path", movePathDescription, runMovePath, previewMovePath)
}

type movePlan struct {
	src, dst string
	srcInfo  fs.FileInfo
	replaces fs.FileInfo // the file at dst that will be replaced, if any
}

func planMove(fsys afero.Fs, a movePathArgs) (*movePlan, error) {
	src, err := workspace.CleanPath(a.Source)
	if err != nil {
		return nil, err
	}
	dst, err := workspace.CleanPath(a.Destination)
	if err != nil {
		return nil, err
	}
	if src == "." {
		return nil, coded(workspace.CodeInvalidArgs, txtMoveRoot)
	}
	sfi, err := statClean(fsys, src)
	if err != nil {
		return nil, err
	}
	if dst == "." {
		dst = baseOf(src)
	} else if dfi, err := fsys.Stat(workspace.FSName(dst)); err == nil && dfi.IsDir() && dst != src {
		dst = workspace.JoinPath(dst, baseOf(src))
	}
	if dst == src {
		return nil, coded(workspace.CodeInvalidArgs, txtMoveSame, "path", src)
	}
	if sfi.IsDir() && workspace.Within(dst, src) {
		return nil, coded(workspace.CodeInvalidArgs, txtMoveIntoItself, "from", src, "to", dst)
	}
	pl := &movePlan{src: src, dst: dst, srcInfo: sfi}
	dfi, err := fsys.Stat(workspace.FSName(dst))
	switch {
	case err == nil && dfi.IsDir():
		return nil, coded(workspace.CodeExists, txtMoveDestFolder, "path", dst)
	case err == nil && sfi.IsDir():
		return nil, coded(workspace.CodeExists, txtMoveDestFile, "path", dst)
	case err == nil && !bool(a.Overwrite):
		return nil, coded(workspace.CodeExists, txtMoveDestExists, "path", dst)
	case err == nil:
		pl.replaces = dfi
	case isMissing(err):
		if err := checkParentWritable(fsys, dst); err != nil {
			return nil, err
		}
	default:
		return nil, workspace.FSError(dst, err)
	}
	return pl, nil
}

func previewMovePath(fsys afero.Fs, a movePathArgs) (Preview, error) {
	pl, err := planMove(fsys, a)
	if err != nil {
		return Preview{}, err
	}
	pv := Preview{Path: pl.src}
	if pl.srcInfo.IsDir() {
		st := treeStats(fsys, pl.src)
		pv.say(txtMoveFolder, "from", dirDisplay(pl.src), "to", dirDisplay(pl.dst),
			"files", counted(st.files, txtOneFile, txtFiles), "size", workspace.HumanSizeText(st.bytes))
		return pv, nil
	}
	pv.say(txtMove, "from", pl.src, "to", pl.dst)
	if pl.replaces == nil {
		return pv, nil
	}
	pv.Path = pl.dst
	pv.say(txtMoveReplaces, "from", pl.src, "to", pl.dst, "size", workspace.HumanSizeText(pl.replaces.Size()))
	if pl.replaces.Size()+pl.srcInfo.Size() <= workspace.MaxDiffInputBytes {
		oldData, err1 := afero.ReadFile(fsys, workspace.FSName(pl.dst))
		newData, err2 := afero.ReadFile(fsys, workspace.FSName(pl.src))
		if err1 == nil && err2 == nil && !workspace.IsBinary(oldData) && !workspace.IsBinary(newData) {
			pv.Diff = capDiff(workspace.UnifiedDiff("a/"+pl.dst, "b/"+pl.dst, string(oldData), string(newData)))
		}
	}
	return pv, nil
}

func runMovePath(_ context.Context, fsys afero.Fs, a movePathArgs) (string, error) {
	pl, err := planMove(fsys, a)
	if err != nil {
		return "", err
	}
	if err := fsys.MkdirAll(workspace.FSName(workspace.ParentOf(pl.dst)), 0o755); err != nil {
		return "", workspace.FSError(workspace.ParentOf(pl.dst), err)
	}
	if pl.replaces != nil {
		if err := fsys.Remove(workspace.FSName(pl.dst)); err != nil {
			return "", workspace.FSError(pl.dst, err)
		}
	}
	if err := fsys.Rename(workspace.FSName(pl.src), workspace.FSName(pl.dst)); err != nil {
		return "", workspace.FSError(pl.src, err)
	}
	if pl.srcInfo.IsDir() {
		return fmt.Sprintf("Moved folder %s → %s.", dirDisplay(pl.src), dirDisplay(pl.dst)), nil
	}
	if pl.replaces != nil {
		return fmt.Sprintf("Moved %s → %s, replacing the previous %s.", pl.src, pl.dst, pl.dst), nil
	}
	return fmt.Sprintf("Moved %s → %s.", pl.src, pl.dst), nil
}
