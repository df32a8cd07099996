package files

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/afero"

	"airlock/backend/tools"
	"airlock/backend/workspace"
)

type findFilesArgs struct {
	Pattern string `json:"pattern" minLength:"1" jsonschema:"Glob to match. Examples: \"*.go\", \"**/README.md\", \"src/**/*.{ts,tsx}\"."`
	Path    string `json:"path,omitempty" airlock:"path" jsonschema:"Folder to search in, relative to the workspace root. Default \".\"."`
}

var findFilesDescription = "Find files and folders by name with a glob pattern. \"*.md\" finds every Markdown file at any depth " +
	"(a pattern without \"/\" matches names); \"src/**/*_test.go\" or \"docs/*.txt\" match paths relative to path " +
	"(default: the workspace root). * matches any part of a name, ** any number of folders, ? one character, " +
	"{a,b} either alternative. Results are paths relative to the workspace root, sorted, folders ending with " +
	"\"/\"; at most " + workspace.Commas(MaxFindResults) + ". .git and node_modules are not searched unless the pattern or path " +
	"names them. Use search_files to search inside files."

func findFiles() tools.Tool {
	return fileTool("find_files", findFilesDescription, runFindFiles, nil)
}

func runFindFiles(ctx context.Context, fsys afero.Fs, a findFilesArgs) (string, error) {
	if strings.TrimSpace(a.Pattern) == "" {
		return "", coded(workspace.CodeInvalidArgs, txtFindEmpty)
	}
	for _, part := range strings.Split(a.Pattern, "/") {
		if part == ".." {
			return "", coded(CodeBadPattern, txtFindDotDot, "pattern", strconv.Quote(a.Pattern))
		}
	}
	match, err := globMatcher(a.Pattern)
	if err != nil {
		return "", err
	}
	root, err := workspace.CleanPath(a.Path)
	if err != nil {
		return "", err
	}
	fi, err := statClean(fsys, root)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", coded(workspace.CodeNotDirectory, txtFindInFile, "path", root)
	}
	var b strings.Builder
	found := 0
	noSkip := mentionsSkipped(root, a.Pattern)
	err = walk(ctx, fsys, root, 0, noSkip, func(e walkEntry) error {
		if !match(relTo(e.path, root)) {
			return nil
		}
		found++
		if found > MaxFindResults {
			return errStop
		}
		b.WriteString(shown(e.path))
		if e.info.IsDir() {
			b.WriteByte('/')
		}
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		return "", err
	}
	where := ""
	if root != "." {
		where = " under " + dirDisplay(root)
	}
	switch {
	case found == 0:
		return fmt.Sprintf("Nothing matches %q%s.", a.Pattern, where), nil
	case found > MaxFindResults:
		fmt.Fprintf(&b, "[truncated: showing the first %s matches; use a narrower pattern or path]", workspace.Commas(MaxFindResults))
	default:
		fmt.Fprintf(&b, "[%s]", plural(int64(found), "match", "matches"))
	}
	return b.String(), nil
}
