package files

import (
	"context"
	"fmt"
	"io/fs"
	"strings"

	"github.com/spf13/afero"

	"airlock/backend/tools"
	"airlock/backend/workspace"
)

type deletePathArgs struct {
	Path      string   `json:"path" airlock:"path" jsonschema:"File or folder to delete, relative to the workspace root. Example: \"tmp/output.log\"."`
	Recursive flexBool `json:"recursive,omitempty" jsonschema:"Needed to delete a folder that is not empty, with everything in it. Default false."`
}

const deletePathDescription = "Delete a file or a folder of the workspace. Path is relative to the workspace root, e.g. \"old.txt\" " +
	"or \"build\". A folder that still has something in it is only deleted with recursive=true, which deletes " +
	"everything inside it. The user sees what will be deleted and approves first."

func deletePath() tools.Tool {
	return fileTool("delete_path", deletePathDescription, runDeletePath, previewDeletePath)
}

func planDelete(fsys afero.Fs, a deletePathArgs) (string, fs.FileInfo, error) {
	p, err := workspace.CleanPath(a.Path)
	if err != nil {
		return "", nil, err
	}
	if p == "." {
		return "", nil, coded(workspace.CodeInvalidArgs, txtDeleteRoot)
	}
	fi, err := statClean(fsys, p)
	if err != nil {
		return "", nil, err
	}
	// A symbolic link is deleted as itself, whatever it points to (a link
	// to "." is not the whole workspace): its own info, not its target's.
	if l, ok := fsys.(afero.Lstater); ok {
		if li, _, err := l.LstatIfPossible(workspace.FSName(p)); err == nil && li.Mode()&fs.ModeSymlink != 0 {
			return p, li, nil
		}
	}
	if fi.IsDir() && !bool(a.Recursive) {
		f, err := fsys.Open(workspace.FSName(p))
		if err != nil {
			return "", nil, workspace.FSError(p, err)
		}
		names, _ := f.Readdirnames(-1)
		f.Close()
		if len(names) > 0 {
			return "", nil, coded(workspace.CodeNotEmpty, txtDeleteNotEmpty,
				"path", p, "entries", counted(int64(len(names)), txtOneEntry, txtEntries))
		}
	}
	return p, fi, nil
}

func previewDeletePath(fsys afero.Fs, a deletePathArgs) (Preview, error) {
	p, fi, err := planDelete(fsys, a)
	if err != nil {
		return Preview{}, err
	}
	pv := Preview{Path: p}
	if fi.Mode()&fs.ModeSymlink != 0 {
		pv.say(txtDeleteLink, "path", p, "target", linkTarget(fsys, p))
		pv.Diff = fmt.Sprintf("Deleted symbolic link %s\n", p)
		return pv, nil
	}
	if !fi.IsDir() {
		diff, binary := deletionDiff(fsys, p, fi)
		if binary {
			pv.say(txtDeleteBinary, "path", p, "size", workspace.HumanSizeText(fi.Size()))
		} else {
			pv.say(txtDeleteFile, "path", p, "size", workspace.HumanSizeText(fi.Size()))
		}
		pv.Diff = capDiff(diff)
		return pv, nil
	}
	st := treeStats(fsys, p)
	if st.files == 0 && st.dirs == 0 {
		pv.say(txtDeleteEmpty, "path", dirDisplay(p))
		return pv, nil
	}
	pv.say(txtDeleteFolder, "path", dirDisplay(p), "files", counted(st.files, txtOneFile, txtFiles),
		"folders", counted(st.dirs, txtOneFolder, txtFolders), "size", workspace.HumanSizeText(st.bytes))
	var d strings.Builder
	more := int64(0)
	_ = walk(context.Background(), fsys, p, 0, true, func(e walkEntry) error {
		if e.info.IsDir() {
			return nil
		}
		if d.Len() >= MaxPreviewBytes {
			more++
			return nil
		}
		diff, _ := deletionDiff(fsys, e.path, e.info)
		d.WriteString(diff)
		return nil
	})
	pv.Diff = capDiff(d.String())
	if more > 0 {
		pv.Diff += fmt.Sprintf("[… and %s more]\n", plural(more, "file", "files"))
	}
	return pv, nil
}

// deletionDiff shows a file going away: a unified diff to /dev/null, or a
// one-line note for a binary, very large or unreadable file.
func deletionDiff(fsys afero.Fs, p string, fi fs.FileInfo) (string, bool) {
	if !fi.Mode().IsRegular() {
		return fmt.Sprintf("Deleted %s (not a regular file)\n", p), false
	}
	if fi.Size() > workspace.MaxDiffInputBytes {
		return fmt.Sprintf("Deleted %s (%s, too large to show)\n", p, workspace.HumanSize(fi.Size())), false
	}
	data, err := afero.ReadFile(fsys, workspace.FSName(p))
	if err != nil {
		return fmt.Sprintf("Deleted %s\n", p), false
	}
	if workspace.IsBinary(data) {
		return fmt.Sprintf("Binary file a/%s (%s) deleted\n", p, workspace.HumanSize(fi.Size())), true
	}
	if len(data) == 0 {
		return fmt.Sprintf("Deleted empty file %s\n", p), false
	}
	return workspace.UnifiedDiff("a/"+p, "/dev/null", string(data), ""), false
}

func runDeletePath(_ context.Context, fsys afero.Fs, a deletePathArgs) (string, error) {
	p, fi, err := planDelete(fsys, a)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		target := linkTarget(fsys, p)
		if err := fsys.Remove(workspace.FSName(p)); err != nil {
			return "", workspace.FSError(p, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Sprintf("Deleted the symbolic link %s%s; what it pointed to is untouched.", p, target), nil
		}
		return fmt.Sprintf("Deleted %s.", p), nil
	}
	st := treeStats(fsys, p)
	if err := fsys.RemoveAll(workspace.FSName(p)); err != nil {
		return "", workspace.FSError(p, err)
	}
	if st.files == 0 && st.dirs == 0 {
		return fmt.Sprintf("Deleted the empty folder %s.", dirDisplay(p)), nil
	}
	return fmt.Sprintf("Deleted folder %s (%s, %s).", dirDisplay(p),
		plural(st.files, "file", "files"), plural(st.dirs, "folder", "folders")), nil
}

// linkTarget is " (→ target)" for a link whose target can be read.
func linkTarget(fsys afero.Fs, p string) string {
	if r, ok := fsys.(afero.LinkReader); ok {
		if t, err := r.ReadlinkIfPossible(workspace.FSName(p)); err == nil {
			return " (→ " + shown(t) + ")"
		}
	}
	return ""
}
