package workspace

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"regexp/syntax"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/spf13/afero"

	"airlock/backend/chat"
)

// ================= search_files =================

type searchArgs struct {
	Pattern    string   `json:"pattern"`
	Path       string   `json:"path"`
	Glob       string   `json:"glob"`
	IgnoreCase flexBool `json:"ignore_case"`
}

func searchFilesTool() ToolDef {
	return ToolDef{
		Name: "search_files",
		Description: "Search the text of the files in the workspace for a regular expression, like grep. Each match " +
			"comes back as \"path:line:text\" (line numbers from 1; long lines are cut), in path order, at most " +
			commas(MaxSearchMatches) + " matches. The pattern is a Go (RE2) regular expression matched against each line: " +
			"\"TODO\", \"func \\\\w+Handler\", \"^import \". Escape special characters with a backslash to search " +
			"for them literally, e.g. \"foo\\\\(\". path limits the search to a folder or one file (default: the whole " +
			"workspace). glob keeps only some files: \"*.go\" (a pattern without \"/\" matches file names at any depth), " +
			"\"src/**/*.ts\" (a pattern with \"/\" matches paths relative to path). Binary files are skipped, and .git and " +
			"node_modules are not searched unless path points inside them. Use find_files to search file names instead.",
		Parameters: schema(`{
			"type": "object",
			"properties": {
				"pattern": {"type": "string", "minLength": 1, "description": "Regular expression (RE2 syntax) to look for in each line. Example: \"func \\\\w+\\\\(\"."},
				"path": {"type": "string", "description": "Folder or file to search, relative to the workspace root. Default \".\" (everything)."},
				"glob": {"type": "string", "description": "Only search files whose name or path matches this glob. Examples: \"*.md\", \"src/**/*.go\"."},
				"ignore_case": {"type": "boolean", "description": "Match letters regardless of case. Default false."}
			},
			"required": ["pattern"],
			"additionalProperties": false
		}`),
		Run: runSearchFiles,
	}
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
	return errf(CodeBadPattern, chat.ErrInvalid,
		"pattern %q is not a valid regular expression (%s); it uses Go RE2 syntax: escape ( ) [ ] { } . * + ? | ^ $ \\ with a backslash to match them literally",
		pattern, msg)
}

// globMatcher matches a path relative to the search root. A pattern
// without "/" matches the last component at any depth.
func globMatcher(glob string) (func(rel string) bool, error) {
	g := strings.TrimPrefix(strings.TrimSpace(glob), "./")
	if g == "" {
		return func(string) bool { return true }, nil
	}
	if strings.HasPrefix(g, "/") || hasDrive(g) {
		return nil, errf(CodeBadPattern, chat.ErrInvalid, "glob %q must be relative (no leading / or drive letter)", glob)
	}
	if !doublestar.ValidatePattern(g) {
		return nil, errf(CodeBadPattern, chat.ErrInvalid,
			"glob %q is not valid; use * for any name part, ** for any number of folders, ? for one character, {a,b} for alternatives", glob)
	}
	if !strings.Contains(g, "/") {
		return func(rel string) bool { return doublestar.MatchUnvalidated(g, baseOf(rel)) }, nil
	}
	return func(rel string) bool { return doublestar.MatchUnvalidated(g, rel) }, nil
}

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

func runSearchFiles(ctx context.Context, fsys afero.Fs, raw json.RawMessage) (string, error) {
	var a searchArgs
	if err := decodeArgs("search_files", raw, &a, "pattern"); err != nil {
		return "", err
	}
	if a.Pattern == "" {
		return "", errf(CodeInvalidArgs, chat.ErrInvalid, "search_files: pattern is empty; give a regular expression to look for")
	}
	re, whole, fold, err := compileSearch(a.Pattern, bool(a.IgnoreCase))
	if err != nil {
		return "", badRegexp(a.Pattern, err)
	}
	root, err := CleanPath(a.Path)
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
	if IsBinary(data) {
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
		fmt.Fprintf(&s.out, "%s:%d:%s\n", p, ln, trimLine(line))
	}
	return nil
}

// read reads a file into the searcher's reused buffer.
func (s *searcher) read(p string, size int64) ([]byte, error) {
	f, err := s.fsys.Open(fsName(p))
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
		skipped = append(skipped, plural(int64(s.large), "file", "files")+" over "+humanSize(MaxSearchFileBytes))
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

// ================= find_files =================

type findArgs struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path"`
}

func findFilesTool() ToolDef {
	return ToolDef{
		Name: "find_files",
		Description: "Find files and folders by name with a glob pattern. \"*.md\" finds every Markdown file at any depth " +
			"(a pattern without \"/\" matches names); \"src/**/*_test.go\" or \"docs/*.txt\" match paths relative to path " +
			"(default: the workspace root). * matches any part of a name, ** any number of folders, ? one character, " +
			"{a,b} either alternative. Results are paths relative to the workspace root, sorted, folders ending with " +
			"\"/\"; at most " + commas(MaxFindResults) + ". .git and node_modules are not searched unless the pattern or path " +
			"names them. Use search_files to search inside files.",
		Parameters: schema(`{
			"type": "object",
			"properties": {
				"pattern": {"type": "string", "minLength": 1, "description": "Glob to match. Examples: \"*.go\", \"**/README.md\", \"src/**/*.{ts,tsx}\"."},
				"path": {"type": "string", "description": "Folder to search in, relative to the workspace root. Default \".\"."}
			},
			"required": ["pattern"],
			"additionalProperties": false
		}`),
		Run: runFindFiles,
	}
}

func runFindFiles(ctx context.Context, fsys afero.Fs, raw json.RawMessage) (string, error) {
	var a findArgs
	if err := decodeArgs("find_files", raw, &a, "pattern"); err != nil {
		return "", err
	}
	if strings.TrimSpace(a.Pattern) == "" {
		return "", errf(CodeInvalidArgs, chat.ErrInvalid, "find_files: pattern is empty; give a glob such as \"*.go\"")
	}
	for _, part := range strings.Split(a.Pattern, "/") {
		if part == ".." {
			return "", errf(CodeBadPattern, chat.ErrInvalid, "pattern %q may not use \"..\"; set path to choose the folder to search", a.Pattern)
		}
	}
	match, err := globMatcher(a.Pattern)
	if err != nil {
		return "", err
	}
	root, err := CleanPath(a.Path)
	if err != nil {
		return "", err
	}
	fi, err := statClean(fsys, root)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", errf(CodeNotDirectory, chat.ErrInvalid, "%s is a file; path must be a folder to search in", root)
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
		b.WriteString(e.path)
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
		fmt.Fprintf(&b, "[truncated: showing the first %s matches; use a narrower pattern or path]", commas(MaxFindResults))
	default:
		fmt.Fprintf(&b, "[%s]", plural(int64(found), "match", "matches"))
	}
	return b.String(), nil
}

// ================= move_path =================

type moveArgs struct {
	Source      string   `json:"source"`
	Destination string   `json:"destination"`
	Overwrite   flexBool `json:"overwrite"`
}

func movePathTool() ToolDef {
	return ToolDef{
		Name: "move_path",
		Description: "Move or rename a file or folder inside the workspace. Both paths are relative to the workspace root. " +
			"\"notes.txt\" → \"notes.md\" renames; \"draft.md\" → \"docs\" moves the file into the existing folder docs " +
			"(as docs/draft.md); missing parent folders of the destination are created. An existing file at the " +
			"destination is only replaced when overwrite is true (its content is lost); an existing folder is never " +
			"replaced. The user approves before anything moves.",
		Parameters: schema(`{
			"type": "object",
			"properties": {
				"source": {"type": "string", "description": "File or folder to move, relative to the workspace root. Example: \"old/name.txt\"."},
				"destination": {"type": "string", "description": "New path, or an existing folder to move into. Example: \"new/name.txt\"."},
				"overwrite": {"type": "boolean", "description": "Replace an existing file at the destination. Default false."}
			},
			"required": ["source", "destination"],
			"additionalProperties": false
		}`),
		Run:     runMovePath,
		Preview: previewMovePath,
	}
}

type movePlan struct {
	src, dst string
	srcInfo  fs.FileInfo
	replaces fs.FileInfo // the file at dst that will be replaced, if any
}

func planMove(fsys afero.Fs, raw json.RawMessage) (*movePlan, error) {
	var a moveArgs
	if err := decodeArgs("move_path", raw, &a, "source", "destination"); err != nil {
		return nil, err
	}
	src, err := CleanPath(a.Source)
	if err != nil {
		return nil, err
	}
	dst, err := CleanPath(a.Destination)
	if err != nil {
		return nil, err
	}
	if src == "." {
		return nil, errf(CodeInvalidArgs, chat.ErrInvalid, "move_path cannot move the workspace root")
	}
	sfi, err := statClean(fsys, src)
	if err != nil {
		return nil, err
	}
	if dst == "." {
		dst = baseOf(src)
	} else if dfi, err := fsys.Stat(fsName(dst)); err == nil && dfi.IsDir() && dst != src {
		dst = joinPath(dst, baseOf(src))
	}
	if dst == src {
		return nil, errf(CodeInvalidArgs, chat.ErrInvalid, "source and destination are the same (%s); nothing to move", src)
	}
	if sfi.IsDir() && within(dst, src) {
		return nil, errf(CodeInvalidArgs, chat.ErrInvalid, "cannot move the folder %s into itself (%s)", src, dst)
	}
	pl := &movePlan{src: src, dst: dst, srcInfo: sfi}
	dfi, err := fsys.Stat(fsName(dst))
	switch {
	case err == nil && dfi.IsDir():
		return nil, errf(CodeExists, chat.ErrInvalid, "%s already exists as a folder; choose another destination", dst)
	case err == nil && sfi.IsDir():
		return nil, errf(CodeExists, chat.ErrInvalid, "%s already exists as a file; a folder cannot replace it", dst)
	case err == nil && !bool(a.Overwrite):
		return nil, errf(CodeExists, chat.ErrInvalid,
			"%s already exists; set overwrite=true to replace it (its current content is lost), or choose another destination", dst)
	case err == nil:
		pl.replaces = dfi
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		if err := checkParentWritable(fsys, dst); err != nil {
			return nil, err
		}
	default:
		return nil, fsError(dst, err)
	}
	return pl, nil
}

func previewMovePath(fsys afero.Fs, raw json.RawMessage) (Preview, error) {
	pl, err := planMove(fsys, raw)
	if err != nil {
		return Preview{}, err
	}
	pv := Preview{Path: pl.src}
	if pl.srcInfo.IsDir() {
		st := treeStats(fsys, pl.src)
		pv.Summary = fmt.Sprintf("Move folder %s → %s (%s, %s)", dirDisplay(pl.src), dirDisplay(pl.dst),
			plural(st.files, "file", "files"), humanSize(st.bytes))
		return pv, nil
	}
	pv.Summary = fmt.Sprintf("Move %s → %s", pl.src, pl.dst)
	if pl.replaces == nil {
		return pv, nil
	}
	pv.Path = pl.dst
	pv.Summary += fmt.Sprintf("; this REPLACES the existing %s (%s), whose content is lost", pl.dst, humanSize(pl.replaces.Size()))
	if pl.replaces.Size()+pl.srcInfo.Size() <= MaxDiffInputBytes {
		oldData, err1 := afero.ReadFile(fsys, fsName(pl.dst))
		newData, err2 := afero.ReadFile(fsys, fsName(pl.src))
		if err1 == nil && err2 == nil && !IsBinary(oldData) && !IsBinary(newData) {
			pv.Diff = capDiff(UnifiedDiff("a/"+pl.dst, "b/"+pl.dst, string(oldData), string(newData)))
		}
	}
	return pv, nil
}

func runMovePath(_ context.Context, fsys afero.Fs, raw json.RawMessage) (string, error) {
	pl, err := planMove(fsys, raw)
	if err != nil {
		return "", err
	}
	if err := fsys.MkdirAll(fsName(parentOf(pl.dst)), 0o755); err != nil {
		return "", fsError(parentOf(pl.dst), err)
	}
	if pl.replaces != nil {
		if err := fsys.Remove(fsName(pl.dst)); err != nil {
			return "", fsError(pl.dst, err)
		}
	}
	if err := fsys.Rename(fsName(pl.src), fsName(pl.dst)); err != nil {
		return "", fsError(pl.src, err)
	}
	if pl.srcInfo.IsDir() {
		return fmt.Sprintf("Moved folder %s → %s.", dirDisplay(pl.src), dirDisplay(pl.dst)), nil
	}
	if pl.replaces != nil {
		return fmt.Sprintf("Moved %s → %s, replacing the previous %s.", pl.src, pl.dst, pl.dst), nil
	}
	return fmt.Sprintf("Moved %s → %s.", pl.src, pl.dst), nil
}

// ================= delete_path =================

type deleteArgs struct {
	Path      string   `json:"path"`
	Recursive flexBool `json:"recursive"`
}

func deletePathTool() ToolDef {
	return ToolDef{
		Name: "delete_path",
		Description: "Delete a file or a folder of the workspace. Path is relative to the workspace root, e.g. \"old.txt\" " +
			"or \"build\". A folder that still has something in it is only deleted with recursive=true, which deletes " +
			"everything inside it. The user sees what will be deleted and approves first.",
		Parameters: schema(`{
			"type": "object",
			"properties": {
				"path": {"type": "string", "description": "File or folder to delete, relative to the workspace root. Example: \"tmp/output.log\"."},
				"recursive": {"type": "boolean", "description": "Needed to delete a folder that is not empty, with everything in it. Default false."}
			},
			"required": ["path"],
			"additionalProperties": false
		}`),
		Run:     runDeletePath,
		Preview: previewDeletePath,
	}
}

type treeStat struct{ files, dirs, bytes int64 }

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

func planDelete(fsys afero.Fs, raw json.RawMessage) (string, fs.FileInfo, error) {
	var a deleteArgs
	if err := decodeArgs("delete_path", raw, &a, "path"); err != nil {
		return "", nil, err
	}
	p, err := CleanPath(a.Path)
	if err != nil {
		return "", nil, err
	}
	if p == "." {
		return "", nil, errf(CodeInvalidArgs, chat.ErrInvalid, "delete_path cannot delete the workspace root; delete the entries inside it one by one")
	}
	fi, err := statClean(fsys, p)
	if err != nil {
		return "", nil, err
	}
	if fi.IsDir() && !bool(a.Recursive) {
		f, err := fsys.Open(fsName(p))
		if err != nil {
			return "", nil, fsError(p, err)
		}
		names, _ := f.Readdirnames(-1)
		f.Close()
		if len(names) > 0 {
			return "", nil, errf(CodeNotEmpty, chat.ErrInvalid,
				"%s is a folder with %s in it; set recursive=true to delete it and everything inside",
				p, plural(int64(len(names)), "entry", "entries"))
		}
	}
	return p, fi, nil
}

func previewDeletePath(fsys afero.Fs, raw json.RawMessage) (Preview, error) {
	p, fi, err := planDelete(fsys, raw)
	if err != nil {
		return Preview{}, err
	}
	pv := Preview{Path: p}
	if !fi.IsDir() {
		diff, binary := deletionDiff(fsys, p, fi)
		if binary {
			pv.Summary = fmt.Sprintf("Delete %s (binary, %s)", p, humanSize(fi.Size()))
		} else {
			pv.Summary = fmt.Sprintf("Delete %s (%s)", p, humanSize(fi.Size()))
		}
		pv.Diff = capDiff(diff)
		return pv, nil
	}
	st := treeStats(fsys, p)
	if st.files == 0 && st.dirs == 0 {
		pv.Summary = fmt.Sprintf("Delete the empty folder %s", dirDisplay(p))
		return pv, nil
	}
	pv.Summary = fmt.Sprintf("Delete folder %s and everything in it: %s, %s (%s)", dirDisplay(p),
		plural(st.files, "file", "files"), plural(st.dirs, "folder", "folders"), humanSize(st.bytes))
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
	if fi.Size() > MaxDiffInputBytes {
		return fmt.Sprintf("Deleted %s (%s, too large to show)\n", p, humanSize(fi.Size())), false
	}
	data, err := afero.ReadFile(fsys, fsName(p))
	if err != nil {
		return fmt.Sprintf("Deleted %s\n", p), false
	}
	if IsBinary(data) {
		return fmt.Sprintf("Binary file a/%s (%s) deleted\n", p, humanSize(fi.Size())), true
	}
	if len(data) == 0 {
		return fmt.Sprintf("Deleted empty file %s\n", p), false
	}
	return UnifiedDiff("a/"+p, "/dev/null", string(data), ""), false
}

func runDeletePath(_ context.Context, fsys afero.Fs, raw json.RawMessage) (string, error) {
	p, fi, err := planDelete(fsys, raw)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		if err := fsys.Remove(fsName(p)); err != nil {
			return "", fsError(p, err)
		}
		return fmt.Sprintf("Deleted %s.", p), nil
	}
	st := treeStats(fsys, p)
	if err := fsys.RemoveAll(fsName(p)); err != nil {
		return "", fsError(p, err)
	}
	if st.files == 0 && st.dirs == 0 {
		return fmt.Sprintf("Deleted the empty folder %s.", dirDisplay(p)), nil
	}
	return fmt.Sprintf("Deleted folder %s (%s, %s).", dirDisplay(p),
		plural(st.files, "file", "files"), plural(st.dirs, "folder", "folders")), nil
}
