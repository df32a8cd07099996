// Package attach checks the files a person attaches to a message and turns
// them into what the model is sent. It decides by the bytes, never by the
// name: an image is an image because its header says so, a text file is
// valid UTF-8 without NUL bytes. Every cap is named in the error that
// refuses a file.
package attach

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	_ "image/gif" // DecodeConfig of GIFs
	_ "image/jpeg"
	_ "image/png"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	_ "golang.org/x/image/webp" // DecodeConfig of WebP

	"airlock/backend/chat"
)

// Caps. A file past one is refused with a sentence that names it.
const (
	MaxFileBytes    = 20 << 20   // one attached file
	MaxMessageBytes = 50 << 20   // all the files of one message
	MaxPixels       = 40_000_000 // one image (width × height), read from its header before decoding
	MaxFiles        = 20         // files on one message
	MaxNameRunes    = 200        // a file's name, as kept
	// MaxSentSide is the longest side of an image as sent to a model:
	// larger images are scaled down for the request; the original is kept.
	MaxSentSide = 2048
)

// Kinds of attachment.
const (
	KindImage = "image"
	KindText  = "text"
)

func refuse(format string, args ...any) error {
	return chat.Errorf("attachment_refused", chat.ErrInvalid, format, args...)
}

// Sum is the content address of data: its SHA-256 in hex.
func Sum(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// Check decides whether data, attached under name, can be sent to a model,
// and how: as an image or as a text block. The name is made safe first.
func Check(name string, data []byte) (chat.AttachmentData, error) {
	name = SafeName(name)
	if len(data) > MaxFileBytes {
		return chat.AttachmentData{}, refuse("%s is %s; one attached file may be at most %s.", name, Size(len(data)), Size(MaxFileBytes))
	}
	if len(data) == 0 {
		return chat.AttachmentData{}, refuse("%s is empty: there is nothing to attach.", name)
	}
	a := chat.Attachment{Name: name, Size: int64(len(data)), SHA256: Sum(data)}
	if mime := imageType(data); mime != "" {
		cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			return chat.AttachmentData{}, refuse("%s looks like a %s image but its header cannot be read (%v).", name, strings.TrimPrefix(mime, "image/"), err)
		}
		if px := int64(cfg.Width) * int64(cfg.Height); px > MaxPixels || cfg.Width <= 0 || cfg.Height <= 0 {
			return chat.AttachmentData{}, refuse("%s is %d×%d pixels; an attached image may have at most %d million pixels.", name, cfg.Width, cfg.Height, MaxPixels/1_000_000)
		}
		a.Kind, a.MIME, a.Width, a.Height = KindImage, mime, cfg.Width, cfg.Height
		return chat.AttachmentData{Attachment: a, Data: data}, nil
	}
	if ext := strings.ToLower(filepath.Ext(name)); imageExt[ext] {
		return chat.AttachmentData{}, refuse("%s is named like an image, but its content is not a PNG, JPEG, GIF or WebP image, so it is refused (SVG is not accepted: it can carry scripts).", name)
	}
	if bytes.HasPrefix(data, []byte("%PDF-")) {
		return chat.AttachmentData{}, refuse("%s is a PDF. Airlock does not read PDFs yet (no well-kept pure-Go library extracts their text reliably): copy the text you need into a .txt or .md file and attach that.", name)
	}
	if isText(data) {
		a.Kind, a.MIME = KindText, textMIME(name)
		return chat.AttachmentData{Attachment: a, Data: data}, nil
	}
	return chat.AttachmentData{}, refuse("%s is not a file Airlock can send to a model: attach PNG, JPEG, GIF or WebP images, or text files (code, Markdown, CSV, JSON, logs) in UTF-8.", name)
}

// imageExt are the names an image file goes by.
var imageExt = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true, ".svg": true, ".svgz": true, ".bmp": true, ".ico": true, ".tif": true, ".tiff": true, ".heic": true, ".avif": true}

// imageType is the MIME type of a PNG, JPEG, GIF or WebP by its first bytes, or "".
func imageType(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(b, []byte("\xff\xd8\xff")):
		return "image/jpeg"
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return "image/gif"
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return "image/webp"
	}
	return ""
}

// isText says data is UTF-8 text: valid, without NUL bytes and with few
// control characters other than tab, newline, carriage return and form feed.
func isText(b []byte) bool {
	if !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
		return false
	}
	bad := 0
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b {
			bad++
		}
	}
	return bad*100 <= len(b) // at most 1%
}

func textMIME(name string) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".md", ".markdown":
		return "text/markdown"
	case ".csv":
		return "text/csv"
	case ".json":
		return "application/json"
	}
	return "text/plain"
}

// SafeName is a file's name as kept and shown: its last path element,
// control and format characters (newlines, bidi overrides) replaced by "_",
// at most MaxNameRunes runes, never empty.
func SafeName(name string) string {
	name = strings.ToValidUTF8(name, "_")
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return '_'
		}
		return r
	}, name)
	name = strings.TrimSpace(name)
	if r := []rune(name); len(r) > MaxNameRunes {
		name = string(r[:MaxNameRunes])
	}
	if name == "" || name == "." || name == ".." {
		name = "attachment"
	}
	return name
}

// Size is a byte count for people: "20 MB", "512 KB", "12 bytes".
func Size(n int) string {
	switch {
	case n >= 1<<20:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/(1<<20))) + " MB"
	case n >= 1<<10:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/(1<<10))) + " KB"
	}
	return fmt.Sprintf("%d bytes", n)
}

func trimZero(s string) string { return strings.TrimSuffix(s, ".0") }

// CheckMessage checks the files of one message together: how many, and
// their total size.
func CheckMessage(files []chat.AttachmentData) error {
	if len(files) > MaxFiles {
		return refuse("%d files are attached; a message may carry at most %d.", len(files), MaxFiles)
	}
	total := 0
	for _, f := range files {
		total += len(f.Data)
	}
	if total > MaxMessageBytes {
		return refuse("The attached files come to %s; one message may carry at most %s.", Size(total), Size(MaxMessageBytes))
	}
	return nil
}
