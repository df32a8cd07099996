package files

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/afero"

	"airlock/backend/tools"
	"airlock/backend/workspace"
)

type editFileArgs struct {
	Path       string   `json:"path" airlock:"path" jsonschema:"File to edit, relative to the workspace root. Example: \"src/main.go\"."`
	OldText    string   `json:"old_text" minLength:"1" jsonschema:"The exact text to replace, as it is in the file now."`
	NewText    string   `json:"new_text" jsonschema:"The text to put in its place (may be empty to delete)."`
	ReplaceAll flexBool `json:"replace_all,omitempty" jsonschema:"Replace every occurrence instead of requiring exactly one. Default false."`
}

const editFileDescription = "Change part of a text file by replacing an exact piece of text. old_text must appear in the file " +
	"exactly as written, including spaces, tabs, indentation and line breaks (copy it from read_file output), " +
	"and exactly once, unless replace_all is true. Include a few unchanged lines around the change so the match " +
	"is unique. If old_text is not found, or found several times, nothing is changed and the error says why. To " +
	"delete text, use an empty new_text; to create a file or rewrite all of it, use write_file. The user sees a " +
	"diff and approves before anything is written."

func editFile() tools.Tool {
	return fileTool("edit_file", editFileDescription, runEditFile, previewEditFile)
}

type editPlan struct {
	path      string
	old, new  string
	mode      os.FileMode
	count     int
	firstLine int
}

func planEdit(fsys afero.Fs, a editFileArgs) (*editPlan, error) {
	p, err := workspace.CleanPath(a.Path)
	if err != nil {
		return nil, err
	}
	if a.OldText == "" {
		return nil, coded(workspace.CodeInvalidArgs, txtEditEmptyOld)
	}
	if a.OldText == a.NewText {
		return nil, coded(workspace.CodeInvalidArgs, txtEditSame)
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
		if line := looseMatchLine(content, oldText); line > 0 {
			return nil, coded(CodeEditNoMatch, txtEditNoMatchNear, "path", p, "line", line)
		}
		return nil, coded(CodeEditNoMatch, txtEditNoMatch, "path", p)
	}
	if n > 1 && !a.ReplaceAll {
		lines := matchLines(content, oldText, 10)
		list := joinInts(lines)
		if n > len(lines) {
			list += ", …"
		}
		return nil, coded(CodeEditAmbiguous, txtEditAmbiguous, "n", n, "path", p, "lines", list)
	}
	count := 1
	if a.ReplaceAll {
		count = -1
	}
	updated := strings.Replace(content, oldText, newText, count)
	if len(updated) > MaxWriteBytes {
		return nil, coded(workspace.CodeTooLarge, txtEditTooLarge,
			"path", p, "size", workspace.HumanSizeText(int64(len(updated))), "max", workspace.HumanSizeText(MaxWriteBytes))
	}
	first := strings.Count(content[:strings.Index(content, oldText)], "\n") + 1
	if !a.ReplaceAll {
		n = 1
	}
	return &editPlan{path: p, old: content, new: updated, mode: fi.Mode().Perm(), count: n, firstLine: first}, nil
}

func previewEditFile(fsys afero.Fs, a editFileArgs) (Preview, error) {
	pl, err := planEdit(fsys, a)
	if err != nil {
		return Preview{}, err
	}
	d := workspace.UnifiedDiff("a/"+pl.path, "b/"+pl.path, pl.old, pl.new)
	add, del := diffStat(d)
	pv := Preview{Path: pl.path, Diff: capDiff(d)}
	pv.say(txtEdit, "path", pl.path, "what", counted(int64(pl.count), txtOneOccurrence, txtOccurrences), "added", add, "removed", del)
	return pv, nil
}

func runEditFile(_ context.Context, fsys afero.Fs, a editFileArgs) (string, error) {
	pl, err := planEdit(fsys, a)
	if err != nil {
		return "", err
	}
	if err := afero.WriteFile(fsys, workspace.FSName(pl.path), []byte(pl.new), pl.mode); err != nil {
		return "", workspace.FSError(pl.path, err)
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
