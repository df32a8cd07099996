package workspace

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/afero"

	"airlock/backend/chat"
)

// ToolDef is one file tool: what the model is told (name, description,
// JSON Schema of the arguments) and how it runs. Run's output is the text
// the model reads; its errors are *chat.Error with a code and a message for
// the model. Preview, for the tools that change files, says what will
// change before the user approves (nil for read-only tools).
type ToolDef struct {
	Name        string
	Description string
	Parameters  json.RawMessage
	Run         func(ctx context.Context, fsys afero.Fs, args json.RawMessage) (string, error)
	Preview     func(fsys afero.Fs, args json.RawMessage) (Preview, error)
}

// Preview is what an approval card shows: a one-line summary (several lines
// for a folder deletion), a unified diff against the current content of the
// workspace (red/green), and the path it is about.
type Preview struct {
	Summary string `json:"summary"`
	Diff    string `json:"diff,omitempty"`
	Path    string `json:"path"`
}

// Tools returns the nine file tools, in the order they are offered.
func Tools() []ToolDef {
	return []ToolDef{
		listDirectoryTool(),
		readFileTool(),
		writeFileTool(),
		editFileTool(),
		searchFilesTool(),
		findFilesTool(),
		makeDirectoryTool(),
		movePathTool(),
		deletePathTool(),
	}
}

// ---- arguments ----

// flexInt accepts 5, 5.0 and "5" (models are not always careful).
type flexInt struct {
	set bool
	n   int
}

func (f *flexInt) UnmarshalJSON(b []byte) error {
	s := strings.Trim(strings.TrimSpace(string(b)), `"`)
	if s == "null" || s == "" {
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v != float64(int(v)) {
		return fmt.Errorf("%s is not a whole number", string(b))
	}
	f.set, f.n = true, int(v)
	return nil
}

// flexBool accepts true and "true".
type flexBool bool

func (f *flexBool) UnmarshalJSON(b []byte) error {
	s := strings.ToLower(strings.Trim(strings.TrimSpace(string(b)), `"`))
	switch s {
	case "true", "1", "yes":
		*f = true
	case "false", "0", "no", "null", "":
		*f = false
	default:
		return fmt.Errorf("%s is not true or false", string(b))
	}
	return nil
}

// decodeArgs reads the arguments object into v, checking required keys.
func decodeArgs(tool string, raw json.RawMessage, v any, required ...string) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		return errf(CodeInvalidArgs, chat.ErrInvalid, "%s: the arguments must be a JSON object: %v", tool, err)
	}
	for _, k := range required {
		if v, ok := keys[k]; !ok || string(v) == "null" {
			return errf(CodeInvalidArgs, chat.ErrInvalid, "%s needs the argument %q", tool, k)
		}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return errf(CodeInvalidArgs, chat.ErrInvalid, "%s: argument %q must be a %s", tool, te.Field, te.Type.Kind())
		}
		return errf(CodeInvalidArgs, chat.ErrInvalid, "%s: invalid arguments: %v", tool, err)
	}
	return nil
}

func schema(s string) json.RawMessage {
	if !json.Valid([]byte(s)) {
		panic("workspace: invalid schema: " + s)
	}
	var buf bytes.Buffer
	_ = json.Compact(&buf, []byte(s))
	return buf.Bytes()
}

// ---- shared helpers ----

func statClean(fsys afero.Fs, clean string) (fs.FileInfo, error) {
	fi, err := fsys.Stat(fsName(clean))
	if err != nil {
		return nil, fsError(clean, err)
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
		return "", nil, errf(CodeIsDirectory, chat.ErrInvalid, "%s is a folder, not a file", clean)
	}
	if fi.Size() > max {
		return "", nil, errf(CodeTooLarge, chat.ErrInvalid, "%s is %s; %s works on files up to %s",
			clean, humanSize(fi.Size()), what, humanSize(max))
	}
	data, err := afero.ReadFile(fsys, fsName(clean))
	if err != nil {
		return "", nil, fsError(clean, err)
	}
	if IsBinary(data) {
		return "", nil, binaryError(clean, int64(len(data)))
	}
	return string(data), fi, nil
}

func binaryError(clean string, size int64) error {
	return errf(CodeBinary, chat.ErrInvalid,
		"%s is a binary file (%s); the file tools only read and edit text", clean, humanSize(size))
}

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
		f, err := fsys.Open(fsName(dir))
		if err != nil {
			if depth == 1 {
				return fsError(dir, err)
			}
			return nil
		}
		infos, err := f.Readdir(-1)
		f.Close()
		if err != nil && depth == 1 {
			return fsError(dir, err)
		}
		sort.Slice(infos, func(i, j int) bool { return infos[i].Name() < infos[j].Name() })
		for _, fi := range infos {
			e := walkEntry{path: joinPath(dir, fi.Name()), info: fi, depth: depth}
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

func isLink(fi fs.FileInfo) bool { return fi.Mode()&os.ModeSymlink != 0 }

// ================= list_directory =================

type listArgs struct {
	Path      string   `json:"path"`
	Recursive flexBool `json:"recursive"`
	Depth     flexInt  `json:"depth"`
}

func listDirectoryTool() ToolDef {
	return ToolDef{
		Name: "list_directory",
		Description: "List the files and folders in a folder of the workspace. Use it to find your way around " +
			"before reading or changing files. Paths are relative to the workspace root: \".\" (the default) is the root, " +
			"\"src\" or \"src/components\" a subfolder. Each line is a path you can pass to the other tools: folders end " +
			"with \"/\", files show their size. By default only the folder's own entries are listed; set recursive=true " +
			"to list everything below it, or depth=N to go N levels down. .git and node_modules are shown but not expanded " +
			"(list them directly to look inside). At most " + commas(MaxListEntries) + " entries are returned.",
		Parameters: schema(`{
			"type": "object",
			"properties": {
				"path": {"type": "string", "description": "Folder to list, relative to the workspace root. Default \".\" (the root). Example: \"src\"."},
				"recursive": {"type": "boolean", "description": "Also list the contents of subfolders. Default false."},
				"depth": {"type": "integer", "minimum": 1, "maximum": 20, "description": "How many levels to list: 1 = only this folder's entries, 2 = also their children, and so on. Default 1, or 20 with recursive=true."}
			},
			"additionalProperties": false
		}`),
		Run: runListDirectory,
	}
}

func runListDirectory(ctx context.Context, fsys afero.Fs, raw json.RawMessage) (string, error) {
	var a listArgs
	if err := decodeArgs("list_directory", raw, &a); err != nil {
		return "", err
	}
	dir, err := CleanPath(a.Path)
	if err != nil {
		return "", err
	}
	fi, err := statClean(fsys, dir)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", errf(CodeNotDirectory, chat.ErrInvalid,
			"%s is a file (%s), not a folder; use read_file to read it", dir, humanSize(fi.Size()))
	}
	depth := 1
	if a.Recursive {
		depth = MaxListDepth
	}
	if a.Depth.set {
		if a.Depth.n < 1 {
			return "", errf(CodeInvalidArgs, chat.ErrInvalid, "list_directory: depth must be 1 or more")
		}
		depth = min(a.Depth.n, MaxListDepth)
	}
	var b strings.Builder
	var files, dirs, total int64
	const countCap = 100 * MaxListEntries
	err = walk(ctx, fsys, dir, depth, within(dir, ".git") || within(dir, "node_modules") || skipDirs[baseOf(dir)], func(e walkEntry) error {
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
			b.WriteString(e.path + "/")
			if e.skipped && depth > e.depth {
				b.WriteString("  (not expanded)")
			}
		case isLink(e.info):
			b.WriteString(e.path + "@  (symbolic link)")
		case !e.info.Mode().IsRegular():
			b.WriteString(e.path + "  (special file)")
		default:
			b.WriteString(e.path + "  " + humanSize(e.info.Size()))
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
		shown := "of " + commas(total)
		if total > countCap {
			shown = "of more than " + commas(countCap)
		}
		fmt.Fprintf(&b, "[truncated: showing %s %s entries; list a subfolder, lower depth, or use find_files with a pattern]",
			commas(MaxListEntries), shown)
		return b.String(), nil
	}
	fmt.Fprintf(&b, "[%s, %s]", plural(files, "file", "files"), plural(dirs, "folder", "folders"))
	return b.String(), nil
}

// ================= read_file =================

type readArgs struct {
	Path   string  `json:"path"`
	Offset flexInt `json:"offset"`
	Limit  flexInt `json:"limit"`
}

func readFileTool() ToolDef {
	return ToolDef{
		Name: "read_file",
		Description: "Read a text file of the workspace. Path is relative to the workspace root, e.g. \"README.md\" or " +
			"\"src/main.go\". The text comes back exactly as stored (no line numbers added), so you can copy from it " +
			"into edit_file. Up to " + commas(MaxReadLines) + " lines or " + humanSize(MaxReadBytes) + " come back per call; " +
			"for a longer file the output ends with a note such as \"[truncated: showing lines 1-2000 of 5,000; call " +
			"read_file with offset=2001 to continue]\". offset is the first line to read (1-based) and limit the number " +
			"of lines. Binary files are reported as binary, not read.",
		Parameters: schema(`{
			"type": "object",
			"properties": {
				"path": {"type": "string", "description": "File to read, relative to the workspace root. Example: \"src/main.go\"."},
				"offset": {"type": "integer", "minimum": 1, "description": "First line to return, counting from 1. Default 1."},
				"limit": {"type": "integer", "minimum": 1, "maximum": 2000, "description": "How many lines to return. Default and maximum 2000."}
			},
			"required": ["path"],
			"additionalProperties": false
		}`),
		Run: runReadFile,
	}
}

func runReadFile(ctx context.Context, fsys afero.Fs, raw json.RawMessage) (string, error) {
	var a readArgs
	if err := decodeArgs("read_file", raw, &a, "path"); err != nil {
		return "", err
	}
	p, err := CleanPath(a.Path)
	if err != nil {
		return "", err
	}
	offset, limit := 1, MaxReadLines
	if a.Offset.set {
		if a.Offset.n < 1 {
			return "", errf(CodeInvalidArgs, chat.ErrInvalid, "read_file: offset counts lines from 1")
		}
		offset = a.Offset.n
	}
	if a.Limit.set {
		if a.Limit.n < 1 {
			return "", errf(CodeInvalidArgs, chat.ErrInvalid, "read_file: limit must be 1 or more")
		}
		limit = min(a.Limit.n, MaxReadLines)
	}
	fi, err := statClean(fsys, p)
	if err != nil {
		return "", err
	}
	if fi.IsDir() {
		return "", errf(CodeIsDirectory, chat.ErrInvalid, "%s is a folder; use list_directory to see what is in it", p)
	}
	f, err := fsys.Open(fsName(p))
	if err != nil {
		return "", fsError(p, err)
	}
	defer f.Close()
	page, err := readPage(ctx, f, offset, limit)
	if err != nil {
		if err == errBinary {
			return "", binaryError(p, fi.Size())
		}
		return "", fsError(p, err)
	}
	return page.render(p, offset)
}

// ================= write_file =================

type writeArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

func writeFileTool() ToolDef {
	return ToolDef{
		Name: "write_file",
		Description: "Create a file, or replace the whole content of an existing one. Path is relative to the workspace " +
			"root, e.g. \"notes.md\" or \"src/util/strings.go\"; missing folders are created. The content is written " +
			"exactly as given (include the final newline if you want one). To change part of an existing file, prefer " +
			"edit_file: it is shorter and cannot lose the rest of the file. At most " + humanSize(MaxWriteBytes) +
			" per call. The user sees a diff and approves before anything is written.",
		Parameters: schema(`{
			"type": "object",
			"properties": {
				"path": {"type": "string", "description": "File to write, relative to the workspace root. Example: \"docs/plan.md\"."},
				"content": {"type": "string", "description": "The complete new content of the file."}
			},
			"required": ["path", "content"],
			"additionalProperties": false
		}`),
		Run:     runWriteFile,
		Preview: previewWriteFile,
	}
}

type writePlan struct {
	path   string
	old    string // current content ("" when new)
	exists bool
	binary bool // the current content is binary
	mode   os.FileMode
	data   string
}

func planWrite(fsys afero.Fs, raw json.RawMessage) (*writePlan, error) {
	var a writeArgs
	if err := decodeArgs("write_file", raw, &a, "path", "content"); err != nil {
		return nil, err
	}
	p, err := CleanPath(a.Path)
	if err != nil {
		return nil, err
	}
	if p == "." {
		return nil, errf(CodeIsDirectory, chat.ErrInvalid, "write_file needs a file path, not the workspace root")
	}
	if len(a.Content) > MaxWriteBytes {
		return nil, errf(CodeTooLarge, chat.ErrInvalid, "the content is %s; write_file accepts at most %s per call",
			humanSize(int64(len(a.Content))), humanSize(MaxWriteBytes))
	}
	pl := &writePlan{path: p, data: a.Content, mode: 0o644}
	fi, err := fsys.Stat(fsName(p))
	switch {
	case err == nil && fi.IsDir():
		return nil, errf(CodeIsDirectory, chat.ErrInvalid, "%s is a folder; choose a file name inside it", p)
	case err == nil:
		pl.exists, pl.mode = true, fi.Mode().Perm()
		if fi.Size() <= MaxDiffInputBytes {
			data, err := afero.ReadFile(fsys, fsName(p))
			if err != nil {
				return nil, fsError(p, err)
			}
			pl.binary = IsBinary(data)
			pl.old = string(data)
		} else {
			pl.binary = true // too large to show: treat like binary in the preview
		}
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		if err := checkParentWritable(fsys, p); err != nil {
			return nil, err
		}
	default:
		return nil, fsError(p, err)
	}
	return pl, nil
}

// checkParentWritable fails when a part of p's folder path is a file.
func checkParentWritable(fsys afero.Fs, p string) error {
	for d := parentOf(p); d != "."; d = parentOf(d) {
		fi, err := fsys.Stat(fsName(d))
		if err == nil {
			if !fi.IsDir() {
				return errf(CodeNotDirectory, chat.ErrInvalid, "%s is a file, so %s cannot be created inside it", d, p)
			}
			return nil
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return fsError(d, err)
		}
	}
	return nil
}

func previewWriteFile(fsys afero.Fs, raw json.RawMessage) (Preview, error) {
	pl, err := planWrite(fsys, raw)
	if err != nil {
		return Preview{}, err
	}
	lines := countLines(pl.data)
	pv := Preview{Path: pl.path}
	switch {
	case !pl.exists:
		pv.Summary = fmt.Sprintf("Create %s (%s, %s)", pl.path, plural(int64(lines), "line", "lines"), humanSize(int64(len(pl.data))))
		pv.Diff = capDiff(UnifiedDiff("/dev/null", "b/"+pl.path, "", pl.data))
	case pl.binary:
		pv.Summary = fmt.Sprintf("Replace %s, a binary or very large file, with %s of text (%s)",
			pl.path, plural(int64(lines), "line", "lines"), humanSize(int64(len(pl.data))))
	case pl.old == pl.data:
		pv.Summary = fmt.Sprintf("Rewrite %s with the same content (no change)", pl.path)
	default:
		pv.Diff = capDiff(UnifiedDiff("a/"+pl.path, "b/"+pl.path, pl.old, pl.data))
		add, del := diffStat(pv.Diff)
		pv.Summary = fmt.Sprintf("Overwrite %s: +%d −%d lines", pl.path, add, del)
	}
	return pv, nil
}

func runWriteFile(_ context.Context, fsys afero.Fs, raw json.RawMessage) (string, error) {
	pl, err := planWrite(fsys, raw)
	if err != nil {
		return "", err
	}
	if err := fsys.MkdirAll(fsName(parentOf(pl.path)), 0o755); err != nil {
		return "", fsError(parentOf(pl.path), err)
	}
	if err := afero.WriteFile(fsys, fsName(pl.path), []byte(pl.data), pl.mode); err != nil {
		return "", fsError(pl.path, err)
	}
	size := fmt.Sprintf("%s, %s", plural(int64(countLines(pl.data)), "line", "lines"), humanSize(int64(len(pl.data))))
	if !pl.exists {
		return fmt.Sprintf("Created %s (%s).", pl.path, size), nil
	}
	if pl.binary {
		return fmt.Sprintf("Replaced %s (%s).", pl.path, size), nil
	}
	return fmt.Sprintf("Replaced the content of %s (%s; it had %s).", pl.path, size,
		plural(int64(countLines(pl.old)), "line", "lines")), nil
}

// ================= edit_file =================

type editArgs struct {
	Path       string   `json:"path"`
	OldText    string   `json:"old_text"`
	NewText    string   `json:"new_text"`
	ReplaceAll flexBool `json:"replace_all"`
}

func editFileTool() ToolDef {
	return ToolDef{
		Name: "edit_file",
		Description: "Change part of a text file by replacing an exact piece of text. old_text must appear in the file " +
			"exactly as written, including spaces, tabs, indentation and line breaks (copy it from read_file output), " +
			"and exactly once, unless replace_all is true. Include a few unchanged lines around the change so the match " +
			"is unique. If old_text is not found, or found several times, nothing is changed and the error says why. To " +
			"delete text, use an empty new_text; to create a file or rewrite all of it, use write_file. The user sees a " +
			"diff and approves before anything is written.",
		Parameters: schema(`{
			"type": "object",
			"properties": {
				"path": {"type": "string", "description": "File to edit, relative to the workspace root. Example: \"src/main.go\"."},
				"old_text": {"type": "string", "minLength": 1, "description": "The exact text to replace, as it is in the file now."},
				"new_text": {"type": "string", "description": "The text to put in its place (may be empty to delete)."},
				"replace_all": {"type": "boolean", "description": "Replace every occurrence instead of requiring exactly one. Default false."}
			},
			"required": ["path", "old_text", "new_text"],
			"additionalProperties": false
		}`),
		Run:     runEditFile,
		Preview: previewEditFile,
	}
}

type editPlan struct {
	path      string
	old, new  string
	mode      os.FileMode
	count     int
	firstLine int
}

func planEdit(fsys afero.Fs, raw json.RawMessage) (*editPlan, error) {
	var a editArgs
	if err := decodeArgs("edit_file", raw, &a, "path", "old_text", "new_text"); err != nil {
		return nil, err
	}
	p, err := CleanPath(a.Path)
	if err != nil {
		return nil, err
	}
	if a.OldText == "" {
		return nil, errf(CodeInvalidArgs, chat.ErrInvalid,
			"edit_file: old_text is empty; give the exact text to replace (to create or rewrite a whole file, use write_file)")
	}
	if a.OldText == a.NewText {
		return nil, errf(CodeInvalidArgs, chat.ErrInvalid, "edit_file: old_text and new_text are the same, so nothing would change")
	}
	content, fi, err := readText(fsys, p, MaxWriteBytes, "edit_file")
	if err != nil {
		return nil, err
	}
	oldText, newText := a.OldText, a.NewText
	n := strings.Count(content, oldText)
	if n == 0 && strings.Contains(content, "\r\n") && strings.Contains(oldText, "\n") && !strings.Contains(oldText, "\r") {
		// The file has Windows line endings and the model wrote "\n".
		crlf := strings.ReplaceAll(oldText, "\n", "\r\n")
		if m := strings.Count(content, crlf); m > 0 {
			oldText, n = crlf, m
			if !strings.Contains(newText, "\r") {
				newText = strings.ReplaceAll(newText, "\n", "\r\n")
			}
		}
	}
	if n == 0 {
		msg := fmt.Sprintf("old_text was not found in %s, so nothing was changed. It must match the file exactly, "+
			"including whitespace, indentation and line breaks", p)
		if line := looseMatchLine(content, oldText); line > 0 {
			msg += fmt.Sprintf("; a text that differs only in whitespace starts at line %d", line)
		}
		msg += ". Read the file again (read_file) and copy the text from it."
		return nil, &chat.Error{Code: CodeEditNoMatch, Message: msg, Err: chat.ErrInvalid}
	}
	if n > 1 && !a.ReplaceAll {
		lines := matchLines(content, oldText, 10)
		list := joinInts(lines)
		if n > len(lines) {
			list += ", …"
		}
		return nil, errf(CodeEditAmbiguous, chat.ErrInvalid,
			"old_text appears %d times in %s (at lines %s), so nothing was changed; include more of the surrounding "+
				"lines to make it unique, or set replace_all=true to change every occurrence", n, p, list)
	}
	count := 1
	if a.ReplaceAll {
		count = -1
	}
	updated := strings.Replace(content, oldText, newText, count)
	if len(updated) > MaxWriteBytes {
		return nil, errf(CodeTooLarge, chat.ErrInvalid, "the edited %s would be %s; files are capped at %s",
			p, humanSize(int64(len(updated))), humanSize(MaxWriteBytes))
	}
	first := strings.Count(content[:strings.Index(content, oldText)], "\n") + 1
	if !a.ReplaceAll {
		n = 1
	}
	return &editPlan{path: p, old: content, new: updated, mode: fi.Mode().Perm(), count: n, firstLine: first}, nil
}

func previewEditFile(fsys afero.Fs, raw json.RawMessage) (Preview, error) {
	pl, err := planEdit(fsys, raw)
	if err != nil {
		return Preview{}, err
	}
	d := UnifiedDiff("a/"+pl.path, "b/"+pl.path, pl.old, pl.new)
	add, del := diffStat(d)
	what := "1 occurrence"
	if pl.count > 1 {
		what = commas(int64(pl.count)) + " occurrences"
	}
	return Preview{
		Path:    pl.path,
		Summary: fmt.Sprintf("Edit %s: replace %s (+%d −%d lines)", pl.path, what, add, del),
		Diff:    capDiff(d),
	}, nil
}

func runEditFile(_ context.Context, fsys afero.Fs, raw json.RawMessage) (string, error) {
	pl, err := planEdit(fsys, raw)
	if err != nil {
		return "", err
	}
	if err := afero.WriteFile(fsys, fsName(pl.path), []byte(pl.new), pl.mode); err != nil {
		return "", fsError(pl.path, err)
	}
	if pl.count == 1 {
		return fmt.Sprintf("Edited %s: replaced 1 occurrence at line %d; the file now has %s.",
			pl.path, pl.firstLine, plural(int64(countLines(pl.new)), "line", "lines")), nil
	}
	return fmt.Sprintf("Edited %s: replaced %d occurrences (the first at line %d); the file now has %s.",
		pl.path, pl.count, pl.firstLine, plural(int64(countLines(pl.new)), "line", "lines")), nil
}

// matchLines returns the line numbers of up to max occurrences of sub.
func matchLines(s, sub string, max int) []int {
	var out []int
	line, from := 1, 0
	for len(out) < max {
		i := strings.Index(s[from:], sub)
		if i < 0 {
			break
		}
		line += strings.Count(s[from:from+i], "\n")
		out = append(out, line)
		line += strings.Count(sub, "\n")
		from += i + len(sub)
	}
	return out
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

// looseMatchLine finds sub in s ignoring differences in whitespace and
// returns the line where it starts (0 when absent).
func looseMatchLine(s, sub string) int {
	norm := func(t string, lines bool) (string, []int) {
		var b strings.Builder
		var at []int
		line, space := 1, false
		for _, r := range t {
			if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
				if r == '\n' {
					line++
				}
				space = b.Len() > 0
				continue
			}
			if space {
				b.WriteByte(' ')
				if lines {
					at = append(at, line)
				}
				space = false
			}
			n := b.Len()
			b.WriteRune(r)
			if lines {
				for range b.Len() - n {
					at = append(at, line)
				}
			}
		}
		return b.String(), at
	}
	ns, at := norm(s, true)
	nsub, _ := norm(sub, false)
	if nsub == "" {
		return 0
	}
	i := strings.Index(ns, nsub)
	if i < 0 {
		return 0
	}
	return at[i]
}

// ================= make_directory =================

type mkdirArgs struct {
	Path string `json:"path"`
}

func makeDirectoryTool() ToolDef {
	return ToolDef{
		Name: "make_directory",
		Description: "Create a folder (and any missing parent folders) in the workspace. Path is relative to the workspace " +
			"root, e.g. \"docs\" or \"src/internal/store\". It is fine if the folder already exists. You do not need " +
			"this before write_file, which creates missing folders itself.",
		Parameters: schema(`{
			"type": "object",
			"properties": {
				"path": {"type": "string", "description": "Folder to create, relative to the workspace root. Example: \"src/utils\"."}
			},
			"required": ["path"],
			"additionalProperties": false
		}`),
		Run:     runMakeDirectory,
		Preview: previewMakeDirectory,
	}
}

func planMkdir(fsys afero.Fs, raw json.RawMessage) (string, bool, error) {
	var a mkdirArgs
	if err := decodeArgs("make_directory", raw, &a, "path"); err != nil {
		return "", false, err
	}
	p, err := CleanPath(a.Path)
	if err != nil {
		return "", false, err
	}
	if p == "." {
		return p, true, nil
	}
	fi, err := fsys.Stat(fsName(p))
	switch {
	case err == nil && fi.IsDir():
		return p, true, nil
	case err == nil:
		return "", false, errf(CodeExists, chat.ErrInvalid, "%s already exists as a file", p)
	case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
		return "", false, fsError(p, err)
	}
	if err := checkParentWritable(fsys, p); err != nil {
		return "", false, err
	}
	return p, false, nil
}

func previewMakeDirectory(fsys afero.Fs, raw json.RawMessage) (Preview, error) {
	p, exists, err := planMkdir(fsys, raw)
	if err != nil {
		return Preview{}, err
	}
	if exists {
		return Preview{Path: p, Summary: fmt.Sprintf("Folder %s already exists (no change)", dirDisplay(p))}, nil
	}
	return Preview{Path: p, Summary: "Create folder " + dirDisplay(p)}, nil
}

func runMakeDirectory(_ context.Context, fsys afero.Fs, raw json.RawMessage) (string, error) {
	p, exists, err := planMkdir(fsys, raw)
	if err != nil {
		return "", err
	}
	if exists {
		return fmt.Sprintf("%s already exists.", dirDisplay(p)), nil
	}
	if err := fsys.MkdirAll(fsName(p), 0o755); err != nil {
		return "", fsError(p, err)
	}
	return fmt.Sprintf("Created folder %s.", dirDisplay(p)), nil
}
