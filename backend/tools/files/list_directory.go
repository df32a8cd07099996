package files

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/afero"

	"airlock/backend/tools"
	"airlock/backend/workspace"
)

type listDirectoryArgs struct {
	Path      string   `json:"path,omitempty" airlock:"path" jsonschema:"Folder to list, relative to the workspace root. Default \".\" (the root). Example: \"src\"."`
	Recursive flexBool `json:"recursive,omitempty" jsonschema:"Also list the contents of subfolders. Default false."`
	Depth     flexInt  `json:"depth,omitempty" minimum:"1" maximum:"20" jsonschema:"How many levels to list: 1 = only this folder's entries, 2 = also their children, and so on. Default 1, or 20 with recursive=true."`
}

var listDirectoryDescription = "List the files and folders in a folder of the workspace. Use it to find your way around " +
	"before reading or changing files. Paths are relative to the workspace root: \".\" (the default) is the root, " +
	"\"src\" or \"src/components\" a subfolder. Each line is a path you can pass to the other tools: folders end " +
	"with \"/\", files show their size. By default only the folder's own entries are listed; set recursive=true " +
	"to list everything below it, or depth=N to go N levels down. .git and node_modules are shown but not expanded " +
	"(list them directly to look inside). At most " + workspace.Commas(MaxListEntries) + " entries are returned."

func listDirectory() tools.Tool {
	return fileTool("list_directory", listDirectoryDescription, runListDirectory, nil)
}

func runListDirectory(ctx context.Context, fsys afero.Fs, a listDirectoryArgs) (string, error) {
	dir, err := workspace.CleanPath(a.Path)
	if err != nil {
		return "", err
	}
	fi, err := statClean(fsys, dir)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", coded(workspace.CodeNotDirectory, txtListIsFile, "path", dir, "size", workspace.HumanSizeText(fi.Size()))
	}
	depth := 1
	if a.Recursive {
		depth = MaxListDepth
	}
	if a.Depth.set {
		if a.Depth.n < 1 {
			return "", coded(workspace.CodeInvalidArgs, txtListDepth)
		}
		depth = min(a.Depth.n, MaxListDepth)
	}
	var b strings.Builder
	var files, dirs, total int64
	const countCap = 100 * MaxListEntries
	noSkip := workspace.Within(dir, ".git") || workspace.Within(dir, "node_modules") || skipDirs[baseOf(dir)]
	err = walk(ctx, fsys, dir, depth, noSkip, func(e walkEntry) error {
		total++
		if total > countCap {
			return errStop
		}
		if e.info.IsDir() {
			dirs++
		} else {
			files++
		}
		if total > MaxListEntries {
			return nil
		}
		switch {
		case e.info.IsDir():
			b.WriteString(shown(e.path) + "/")
			if e.skipped && depth > e.depth {
				b.WriteString("  (not expanded)")
			}
		case isLink(e.info):
			b.WriteString(shown(e.path) + "@  (symbolic link)")
		case !e.info.Mode().IsRegular():
			b.WriteString(shown(e.path) + "  (special file)")
		default:
			b.WriteString(shown(e.path) + "  " + workspace.HumanSize(e.info.Size()))
		}
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		return "", err
	}
	if total == 0 {
		return fmt.Sprintf("%s is empty.", dirDisplay(dir)), nil
	}
	if total > MaxListEntries {
		shown := "of " + workspace.Commas(total)
		if total > countCap {
			shown = "of more than " + workspace.Commas(countCap)
		}
		fmt.Fprintf(&b, "[truncated: showing %s %s entries; list a subfolder, lower depth, or use find_files with a pattern]",
			workspace.Commas(MaxListEntries), shown)
		return b.String(), nil
	}
	fmt.Fprintf(&b, "[%s, %s]", plural(files, "file", "files"), plural(dirs, "folder", "folders"))
	return b.String(), nil
}
