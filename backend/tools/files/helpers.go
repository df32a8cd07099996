package files

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/spf13/afero"

	"airlock/backend/chat"
	"airlock/backend/workspace"
)

// Helpers the tools share: errors and wording, reading text, and the diffs
// of the previews.

func errf(code string, wrapped error, format string, args ...any) *chat.Error {
	return chat.Errorf(code, wrapped, format, args...)
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return workspace.Commas(n) + " " + many
}

// baseOf returns the last component of a clean path.
func baseOf(clean string) string {
	return clean[strings.LastIndexByte(clean, '/')+1:]
}

// relTo returns p relative to dir (p must be within dir).
func relTo(p, dir string) string {
	if dir == "." || dir == "" {
		return p
	}
	if p == dir {
		return "."
	}
	return p[len(dir)+1:]
}

// dirDisplay shows a folder with a trailing slash.
func dirDisplay(clean string) string {
	if clean == "." || clean == "" {
		return "./"
	}
	return clean + "/"
}

func statClean(fsys afero.Fs, clean string) (fs.FileInfo, error) {
	fi, err := fsys.Stat(workspace.FSName(clean))
	if err != nil {
		return nil, workspace.FSError(clean, err)
	}
	return fi, nil
}

// readText reads a whole text file, refusing folders, binary files and
// files over max bytes.
func readText(fsys afero.Fs, clean string, max int64, what string) (string, fs.FileInfo, error) {
	fi, err := statClean(fsys, clean)
	if err != nil {
		return "", nil, err
	}
	if fi.IsDir() {
		return "", nil, workspace.FSError(clean, syscall.EISDIR)
	}
	if fi.Size() > max {
		return "", nil, coded(workspace.CodeTooLarge, txtFileTooLarge,
			"path", clean, "size", workspace.HumanSizeText(fi.Size()), "tool", what, "max", workspace.HumanSizeText(max))
	}
	data, err := afero.ReadFile(fsys, workspace.FSName(clean))
	if err != nil {
		return "", nil, workspace.FSError(clean, err)
	}
	if workspace.IsBinary(data) {
		return "", nil, binaryError(clean, int64(len(data)))
	}
	return string(data), fi, nil
}

func binaryError(clean string, size int64) error {
	return coded(workspace.CodeBinary, txtFileBinary, "path", clean, "size", workspace.HumanSizeText(size))
}

// isMissing reports a path that does not exist (or runs through a file).
func isMissing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// checkParentWritable fails when a part of p's folder path is a file.
func checkParentWritable(fsys afero.Fs, p string) error {
	for d := workspace.ParentOf(p); d != "."; d = workspace.ParentOf(d) {
		fi, err := fsys.Stat(workspace.FSName(d))
		if err == nil {
			if !fi.IsDir() {
				return coded(workspace.CodeNotDirectory, txtParentIsFile, "parent", d, "path", p)
			}
			return nil
		}
		if !isMissing(err) {
			return workspace.FSError(d, err)
		}
	}
	return nil
}

func isLink(fi fs.FileInfo) bool { return fi.Mode()&os.ModeSymlink != 0 }

// diffStat counts the added and removed lines of a unified diff.
func diffStat(diff string) (added, removed int) {
	inHunk := false
	for line := range strings.SplitSeq(diff, "\n") {
		switch {
		case strings.HasPrefix(line, "@@"):
			inHunk = true
		case !inHunk:
		case strings.HasPrefix(line, "+"):
			added++
		case strings.HasPrefix(line, "-"):
			removed++
		}
	}
	return
}

// capDiff cuts a preview diff at MaxPreviewBytes, on a line boundary.
func capDiff(d string) string {
	if len(d) <= MaxPreviewBytes {
		return d
	}
	cut := strings.LastIndexByte(d[:MaxPreviewBytes], '\n')
	if cut < 0 {
		cut = MaxPreviewBytes
	}
	return d[:cut+1] + "[diff truncated: " + workspace.HumanSize(int64(len(d))) + " in all]\n"
}

// countLines counts lines the way an editor numbers them.
func countLines(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// shown is a path as listings print it: as is, unless it holds a line
// break, another control character or invalid UTF-8, which could forge
// lines of the output; then it is quoted with escapes ("a\nb").
func shown(p string) string {
	if !utf8.ValidString(p) || strings.IndexFunc(p, func(r rune) bool {
		return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0x2028 || r == 0x2029
	}) >= 0 {
		return strconv.Quote(p)
	}
	return p
}
