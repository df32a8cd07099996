package export

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"airlock/backend/workspace"
)

// Import caps. A file past one is refused with an error that names the
// limit: an import is all or nothing, and a hostile or broken file must
// not cost gigabytes before it is refused.
const (
	// MaxImportBytes: the whole file. Decoding costs several times the
	// file's size in memory, so the cap keeps an import's peak within
	// about a gigabyte; it still holds a chat with a full scratch
	// workspace (64 MB, base64 in JSON).
	MaxImportBytes       = 128 << 20
	MaxTitleBytes        = 1000     // a chat's title
	MaxMessageBytes      = 4 << 20  // a message's text, its reasoning, a call's arguments or result
	MaxScratchFiles      = 10_000   // files in one chat's scratch workspace
	MaxScratchFileBytes  = 16 << 20 // one scratch file
	MaxScratchTotalBytes = 64 << 20 // one chat's scratch workspace
	MaxMessagesPerChat   = 200_000  // messages (and calls) in one chat
)

// CheckImportSize refuses a file larger than MaxImportBytes by its size
// alone, before anything is read (callers that can stat the file).
func CheckImportSize(size int64) error {
	if size > MaxImportBytes {
		return importError("the file is %s bytes, larger than %s bytes, the limit for an import", workspace.Commas(size), workspace.Commas(MaxImportBytes))
	}
	return nil
}

// utf8BOM is the byte order mark some editors put at the start of a file.
var utf8BOM = []byte("\xef\xbb\xbf")

// readCapped reads all of r, refusing a file larger than MaxImportBytes
// before reading more than that (a file's size, when r can tell it, before
// reading anything). A UTF-8 byte order mark at the start is dropped.
func readCapped(r io.Reader) ([]byte, error) {
	if f, ok := r.(interface{ Stat() (os.FileInfo, error) }); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			if err := CheckImportSize(fi.Size()); err != nil {
				return nil, err
			}
		}
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxImportBytes+1))
	if err != nil {
		return nil, importError("reading the file: %v", err)
	}
	if len(data) > MaxImportBytes {
		return nil, importError("the file is larger than %s bytes, the limit for an import", workspace.Commas(MaxImportBytes))
	}
	return bytes.TrimPrefix(data, utf8BOM), nil
}

// overLimit is the error for a value past a cap: "chats[0].title: 5,000
// bytes, over the 1,000-byte limit for a title".
func overLimit(path string, n, limit int, what string) error {
	return importError("%s: %s bytes, over the %s-byte limit for %s", path, workspace.Commas(int64(n)),
		workspace.Commas(int64(limit)), what)
}

// checkLimits checks one chat against the caps (Validate calls it).
func checkLimits(cp string, c Chat) error {
	if len(c.Title) > MaxTitleBytes {
		return overLimit(cp+".title", len(c.Title), MaxTitleBytes, "a title")
	}
	if n := len(c.Messages) + len(c.Calls); n > MaxMessagesPerChat {
		return importError("%s: %s messages and calls, over the limit of %s for a chat", cp,
			workspace.Commas(int64(n)), workspace.Commas(MaxMessagesPerChat))
	}
	for i, m := range c.Messages {
		if len(m.Content) > MaxMessageBytes {
			return overLimit(fmt.Sprintf("%s.messages[%d].content", cp, i), len(m.Content), MaxMessageBytes, "a message")
		}
		if len(m.Reasoning) > MaxMessageBytes {
			return overLimit(fmt.Sprintf("%s.messages[%d].reasoning", cp, i), len(m.Reasoning), MaxMessageBytes, "a message's reasoning")
		}
	}
	for i, cl := range c.Calls {
		lp := fmt.Sprintf("%s.calls[%d]", cp, i)
		for field, n := range map[string]int{"arguments": len(cl.Arguments), "edited": len(cl.Edited),
			"result": len(cl.Result), "raw": len(cl.Raw), "preview": len(cl.Preview)} {
			if n > MaxMessageBytes {
				return overLimit(lp+"."+field, n, MaxMessageBytes, "a tool call's "+field)
			}
		}
	}
	if len(c.ScratchFiles) > MaxScratchFiles {
		return importError("%s.scratchFiles: %s files, over the limit of %s for a workspace", cp,
			workspace.Commas(int64(len(c.ScratchFiles))), workspace.Commas(MaxScratchFiles))
	}
	total := 0
	for i, f := range c.ScratchFiles {
		// base64 is 4/3 of the bytes it holds: compare what is stored.
		n := len(f.Content)
		if f.Encoding == "base64" {
			n = n / 4 * 3
		}
		if n > MaxScratchFileBytes {
			return overLimit(fmt.Sprintf("%s.scratchFiles[%d].content", cp, i), n, MaxScratchFileBytes, "a workspace file")
		}
		if total += n; total > MaxScratchTotalBytes {
			return importError("%s.scratchFiles: more than %s bytes, the limit for a chat's workspace", cp,
				workspace.Commas(MaxScratchTotalBytes))
		}
	}
	return nil
}
