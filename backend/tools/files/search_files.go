package files

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/spf13/afero"

	"airlock/backend/tools"
	"airlock/backend/workspace"
)

type searchFilesArgs struct {
	Pattern    string   `json:"pattern" minLength:"1" jsonschema:"Regular expression (RE2 syntax) to look for in each line. Example: \"func \\\\w+\\\\(\"."`
	Path       string   `json:"path,omitempty" airlock:"path" jsonschema:"Folder or file to search, relative to the workspace root. Default \".\" (everything)."`
	Glob       string   `json:"glob,omitempty" jsonschema:"Only search files whose name or path matches this glob. Examples: \"*.md\", \"src/**/*.go\"."`
	IgnoreCase flexBool `json:"ignore_case,omitempty" jsonschema:"Match letters regardless of case. Default false."`
}

var searchFilesDescription = "Search the text of the files in the workspace for a regular expression, like grep. Each match " +
	"comes back as \"path:line:text\" (line numbers from 1; long lines are cut), in path order, at most " +
	workspace.Commas(MaxSearchMatches) + " matches. The pattern is a Go (RE2) regular expression matched against each line: " +
	"\"TODO\", \"func \\\\w+Handler\", \"^import \". Escape special characters with a backslash to search " +
	"for them literally, e.g. \"foo\\\\(\". path limits the search to a folder or one file (default: the whole " +
	"workspace). glob keeps only some files: \"*.go\" (a pattern without \"/\" matches file names at any depth), " +
	"\"src/**/*.ts\" (a pattern with \"/\" matches paths relative to path). Binary files are skipped, and .git and " +
	"node_modules are not searched unless path points inside them. Use find_files to search file names instead."

func searchFiles() tools.Tool {
	return fileTool("search_files", searchFilesDescription, runSearchFiles, nil)
}

func runSearchFiles(ctx context.Context, fsys afero.Fs, a searchFilesArgs) (string, error) {
	if a.Pattern == "" {
		return "", coded(workspace.CodeInvalidArgs, txtSearchEmpty)
	}
	re, whole, fold, err := compileSearch(a.Pattern, bool(a.IgnoreCase))
	if err != nil {
		return "", badRegexp(a.Pattern, err)
	}
	root, err := workspace.CleanPath(a.Path)
	if err != nil {
		return "", err
	}
	match, err := globMatcher(a.Glob)
	if err != nil {
		return "", err
	}
	fi, err := statClean(fsys, root)
	if err != nil {
		return "", err
	}
	s := searcher{fsys: fsys, re: re, whole: whole, fold: fold}
	if !fi.IsDir() {
		if err := s.file(root, fi); err != nil && err != errStop {
			return "", err
		}
		if s.binary > 0 {
			return "", binaryError(root, fi.Size())
		}
	} else {
		noSkip := mentionsSkipped(root) || mentionsSkipped(a.Glob)
		err := walk(ctx, fsys, root, 0, noSkip, func(e walkEntry) error {
			if e.info.IsDir() || !e.info.Mode().IsRegular() {
				return nil // folders, symbolic links, devices
			}
			if !match(relTo(e.path, root)) {
				return nil
			}
			return s.file(e.path, e.info)
		})
		if err != nil {
			return "", err
		}
	}
	return s.render(a.Pattern, root, fi.IsDir()), nil
}

type searcher struct {
	fsys      afero.Fs
	re, whole *regexp.Regexp
	fold      bool   // whole is for ASCII-lowered text
	lowered   []byte // reused buffers
	buf       []byte
	out       strings.Builder
	matches   int
	files     int // searched
	hitFiles  int
	binary    int
	large     int
	truncated bool
}

func (s *searcher) file(p string, fi fs.FileInfo) error {
	if fi.Size() > MaxSearchFileBytes {
		s.large++
		return nil
	}
	data, err := s.read(p, fi.Size())
	if err != nil {
		return nil // unreadable (e.g. a file that vanished): pass over it
	}
	if workspace.IsBinary(data) {
		s.binary++
		return nil
	}
	s.files++
	if s.whole != nil && bytes.IndexByte(data, '\r') < 0 {
		text, ok := data, true
		if s.fold {
			s.lowered, ok = lowerASCII(s.lowered, data)
			text = s.lowered
		}
		if ok && !s.whole.Match(text) {
			return nil
		}
	}
	hit := false
	for ln := 1; len(data) > 0; ln++ {
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if !s.re.Match(line) {
			continue
		}
		if s.matches == MaxSearchMatches {
			s.truncated = true
			return errStop
		}
		if !hit {
			hit = true
			s.hitFiles++
		}
		s.matches++
		fmt.Fprintf(&s.out, "%s:%d:%s\n", shown(p), ln, trimLine(line))
	}
	return nil
}

// read reads a file into the searcher's reused buffer.
func (s *searcher) read(p string, size int64) ([]byte, error) {
	f, err := s.fsys.Open(workspace.FSName(p))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if int64(cap(s.buf)) < size+512 {
		s.buf = make([]byte, 0, size+512)
	}
	b := bytes.NewBuffer(s.buf[:0])
	_, err = b.ReadFrom(io.LimitReader(f, MaxSearchFileBytes))
	s.buf = b.Bytes()[:0]
	return b.Bytes(), err
}

func trimLine(line []byte) string {
	s := strings.ToValidUTF8(string(line), "\uFFFD")
	if utf8.RuneCountInString(s) <= MaxSearchLineRunes {
		return s
	}
	n := 0
	for i := range s {
		if n == MaxSearchLineRunes {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

func (s *searcher) render(pattern, root string, dir bool) string {
	where := "in " + root
	if dir {
		where = "in " + plural(int64(s.files), "file", "files")
		if root != "." {
			where += " under " + dirDisplay(root)
		}
	}
	var skipped []string
	if s.binary > 0 {
		skipped = append(skipped, plural(int64(s.binary), "binary file", "binary files"))
	}
	if s.large > 0 {
		skipped = append(skipped, plural(int64(s.large), "file", "files")+" over "+workspace.HumanSize(MaxSearchFileBytes))
	}
	skip := ""
	if len(skipped) > 0 {
		skip = "; skipped " + strings.Join(skipped, " and ")
	}
	if s.matches == 0 {
		return fmt.Sprintf("No matches for %q %s%s.", pattern, where, skip)
	}
	if s.truncated {
		fmt.Fprintf(&s.out, "[truncated: showing the first %d matches; narrow the pattern, the path or the glob to see the rest]", MaxSearchMatches)
		return s.out.String()
	}
	fmt.Fprintf(&s.out, "[%s in %s; searched %s%s]", plural(int64(s.matches), "match", "matches"),
		plural(int64(s.hitFiles), "file", "files"), strings.TrimPrefix(where, "in "), skip)
	return s.out.String()
}

// compileSearch returns the per-line regexp and, when it is safe, a
// multi-line version used to skip whole files that cannot match: any line
// that matches `line` also makes `whole` match the file (for patterns
// without \A, \z or flag groups, on files without "\r").
//
// Go's regexp loses its fast literal search under (?i), so for ignore_case
// `whole` is instead a case-sensitive regexp meant for the file with its
// ASCII letters lowered (fold = true): ASCII literals of the pattern are
// lowered, the rest keeps its case folding. The only non-ASCII runes that
// fold to ASCII letters are the Kelvin sign and the long s; files holding
// them skip the pre-filter.
func compileSearch(pattern string, ignoreCase bool) (line, whole *regexp.Regexp, fold bool, err error) {
	flags := ""
	if ignoreCase {
		flags = "(?i)"
	}
	line, err = regexp.Compile(flags + pattern)
	if err != nil {
		return nil, nil, false, err
	}
	if strings.Contains(pattern, `\A`) || strings.Contains(pattern, `\z`) || strings.Contains(pattern, "(?") {
		return line, nil, false, nil
	}
	if !ignoreCase {
		whole, _ = regexp.Compile("(?m)" + pattern)
		return line, whole, false, nil
	}
	tree, err := syntax.Parse(pattern, (syntax.Perl|syntax.FoldCase)&^syntax.OneLine)
	if err != nil {
		return line, nil, false, nil
	}
	lowerASCIILiterals(tree)
	if whole, err = regexp.Compile(tree.String()); err != nil {
		return line, nil, false, nil
	}
	return line, whole, true, nil
}

func lowerASCIILiterals(re *syntax.Regexp) {
	if re.Op == syntax.OpLiteral && re.Flags&syntax.FoldCase != 0 {
		ascii := true
		for _, r := range re.Rune {
			if r >= utf8.RuneSelf {
				ascii = false
				break
			}
		}
		if ascii {
			for i, r := range re.Rune {
				if 'A' <= r && r <= 'Z' {
					re.Rune[i] = r + ('a' - 'A')
				}
			}
			re.Flags &^= syntax.FoldCase
		}
	}
	for _, sub := range re.Sub {
		lowerASCIILiterals(sub)
	}
}

// lowerASCII lowers the ASCII letters of src into buf. ok is false when src
// holds a rune that case-folds to an ASCII letter (K KELVIN SIGN, ſ LONG S).
func lowerASCII(buf, src []byte) (out []byte, ok bool) {
	out = append(buf[:0], src...)
	high := false
	for i, c := range out {
		if 'A' <= c && c <= 'Z' {
			out[i] = c + ('a' - 'A')
		} else if c >= utf8.RuneSelf {
			high = true
		}
	}
	if high && (bytes.Contains(src, []byte("\u212a")) || bytes.Contains(src, []byte("\u017f"))) {
		return out, false
	}
	return out, true
}

func badRegexp(pattern string, err error) error {
	msg := err.Error()
	if i := strings.Index(msg, ": "); i >= 0 && strings.HasPrefix(msg, "error parsing regexp") {
		msg = msg[i+2:]
	}
	return coded(CodeBadPattern, txtSearchBadRegexp, "pattern", strconv.Quote(pattern), "reason", msg)
}
