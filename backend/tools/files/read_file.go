package files

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/spf13/afero"

	"airlock/backend/tools"
	"airlock/backend/workspace"
)

type readFileArgs struct {
	Path   string  `json:"path" airlock:"path" jsonschema:"File to read, relative to the workspace root. Example: \"src/main.go\"."`
	Offset flexInt `json:"offset,omitempty" minimum:"1" jsonschema:"First line to return, counting from 1. Default 1."`
	Limit  flexInt `json:"limit,omitempty" minimum:"1" maximum:"2000" jsonschema:"How many lines to return. Default and maximum 2000."`
}

var readFileDescription = "Read a text file of the workspace. Path is relative to the workspace root, e.g. \"README.md\" or " +
	"\"src/main.go\". The text comes back exactly as stored (no line numbers added), so you can copy from it " +
	"into edit_file. Up to " + workspace.Commas(MaxReadLines) + " lines come back per call, fewer when they are long (a result is capped at about 32 KB); " +
	"for a longer file the output ends with a note such as \"[truncated: showing lines 1-2000 of 5,000; call " +
	"read_file with offset=2001 to continue]\". offset is the first line to read (1-based) and limit the number " +
	"of lines. Binary files are reported as binary, not read."

func readFile() tools.Tool {
	return fileTool("read_file", readFileDescription, runReadFile, nil)
}

func runReadFile(ctx context.Context, fsys afero.Fs, a readFileArgs) (string, error) {
	p, err := workspace.CleanPath(a.Path)
	if err != nil {
		return "", err
	}
	offset, limit := 1, MaxReadLines
	if a.Offset.set {
		if a.Offset.n < 1 {
			return "", coded(workspace.CodeInvalidArgs, txtReadOffset)
		}
		offset = a.Offset.n
	}
	if a.Limit.set {
		if a.Limit.n < 1 {
			return "", coded(workspace.CodeInvalidArgs, txtReadLimit)
		}
		limit = min(a.Limit.n, MaxReadLines)
	}
	fi, err := statClean(fsys, p)
	if err != nil {
		return "", err
	}
	if fi.IsDir() {
		return "", coded(workspace.CodeIsDirectory, txtReadIsFolder, "path", p)
	}
	f, err := fsys.Open(workspace.FSName(p))
	if err != nil {
		return "", workspace.FSError(p, err)
	}
	defer f.Close()
	// The page and its note fit in what the model will see (the engine's
	// cap cut the "continue at offset=" note off a 256 KB page).
	budget := MaxReadBytes
	if l := tools.OutputLimit(ctx); l > 0 {
		budget = max(min(budget, l-readNoteRoom), 1<<10)
	}
	page, err := readPage(ctx, f, offset, limit, budget)
	if err != nil {
		if err == errBinary {
			return "", binaryError(p, fi.Size())
		}
		return "", workspace.FSError(p, err)
	}
	return page.render(p, offset)
}

var errBinary = errors.New("binary file")

// Paging: read_file streams the file once, keeping the lines asked for and
// counting the rest, so a huge file costs no more memory than a page.

// page is the part of a file read_file returns.
type page struct {
	text       []byte
	first      int   // the first line asked for
	last       int   // the last line (fully or partly) in text; 0 = none
	total      int   // lines in the file
	byBytes    bool  // stopped before `limit` lines because of MaxReadBytes
	cutLine    int   // a single line longer than MaxReadBytes, cut
	cutLineLen int64 // its full length
	budget     int   // bytes of text at most (MaxReadBytes, or less)
}

// readNoteRoom is what the note after a page may take.
const readNoteRoom = 512

// readPage streams r, keeping lines [offset, offset+limit) up to
// MaxReadBytes, and counts the lines of the whole file.
func readPage(ctx context.Context, r io.Reader, offset, limit, budget int) (*page, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(workspace.BinarySniffBytes)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, err
	}
	if workspace.IsBinary(head) {
		return nil, errBinary
	}
	pg := &page{first: offset, budget: budget}
	line := 1 // the line the next byte belongs to
	collecting := true
	lineStart, curLen, overflow, partial := 0, int64(0), false, false
	finish := func() {
		if collecting && line >= offset {
			if !overflow {
				pg.last = line
			} else if pg.last == 0 {
				pg.cutLine, pg.cutLineLen, pg.last = line, curLen, line
				pg.text = trimPartialRune(pg.text)
				collecting = false
			} else {
				pg.text = pg.text[:lineStart]
				pg.byBytes = true
				collecting = false
			}
			if line >= offset+limit-1 {
				collecting = false
			}
		}
		line++
		lineStart, curLen, overflow, partial = len(pg.text), 0, false, false
	}
	for n := 0; collecting; n++ {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			partial = true
			if collecting && line >= offset {
				curLen += int64(len(chunk))
				switch {
				case overflow:
				case lineStart+int(curLen) <= pg.budget:
					pg.text = append(pg.text, chunk...)
				default:
					overflow = true
					if pg.last == 0 { // the first line alone is too long: keep its start
						pg.text = append(pg.text, chunk[:pg.budget-len(pg.text)]...)
					}
				}
			}
			if chunk[len(chunk)-1] == '\n' {
				finish()
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			if partial {
				finish()
			}
			pg.total = line - 1
			return pg, nil
		}
		if err != nil {
			return nil, err
		}
	}
	// Past the page: only count the remaining lines.
	buf := make([]byte, 256<<10)
	for n := 0; ; n++ {
		if n%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		k, err := br.Read(buf)
		if k > 0 {
			nl := bytes.Count(buf[:k], []byte{'\n'})
			line += nl
			if nl > 0 {
				partial = buf[k-1] != '\n'
			} else {
				partial = true
			}
		}
		if err == io.EOF {
			if partial {
				line++
			}
			pg.total = line - 1
			return pg, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func trimPartialRune(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		if utf8.RuneStart(b[len(b)-i]) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			break
		}
	}
	return b
}

// render is the text read_file returns: the lines, and a note when they
// are not the whole file.
func (pg *page) render(p string, offset int) (string, error) {
	if pg.total == 0 {
		return fmt.Sprintf("[%s is empty]", p), nil
	}
	if offset > pg.total {
		return "", coded(workspace.CodeInvalidArgs, txtReadPastEnd, "offset", offset, "path", p, "lines", counted(int64(pg.total), txtOneLine, txtLines))
	}
	if offset == 1 && pg.last == pg.total && pg.cutLine == 0 {
		return string(pg.text), nil
	}
	var b bytes.Buffer
	b.Write(pg.text)
	if !bytes.HasSuffix(pg.text, []byte("\n")) {
		b.WriteByte('\n')
	}
	switch {
	case pg.cutLine > 0:
		fmt.Fprintf(&b, "[truncated: line %s is %s long; showing only its first %s",
			workspace.Commas(int64(pg.cutLine)), workspace.HumanSize(pg.cutLineLen), workspace.HumanSize(int64(pg.budget)))
		if pg.cutLine < pg.total {
			fmt.Fprintf(&b, "; the file has %s lines; call read_file with offset=%d to continue after it",
				workspace.Commas(int64(pg.total)), pg.cutLine+1)
		}
		b.WriteString("]")
	case pg.last < pg.total:
		why := "truncated"
		if pg.byBytes {
			why = "truncated at " + workspace.HumanSize(int64(pg.budget))
		}
		fmt.Fprintf(&b, "[%s: showing lines %s-%s of %s; call read_file with offset=%d to continue]",
			why, workspace.Commas(int64(pg.first)), workspace.Commas(int64(pg.last)), workspace.Commas(int64(pg.total)), pg.last+1)
	default:
		fmt.Fprintf(&b, "[showing lines %s-%s of %s; end of file]",
			workspace.Commas(int64(pg.first)), workspace.Commas(int64(pg.last)), workspace.Commas(int64(pg.total)))
	}
	return b.String(), nil
}
