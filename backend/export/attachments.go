package export

import (
	"encoding/base64"
	"fmt"
	"html/template"
	"strings"

	"airlock/backend/attach"
	"airlock/backend/chat"
)

// exportFiles are a message's files as written: metadata and bytes.
func exportFiles(files []chat.AttachmentData) []Attachment {
	var out []Attachment
	for _, f := range files {
		out = append(out, Attachment{Name: f.Name, Kind: f.Kind, MIME: f.MIME, Size: f.Size, SHA256: f.SHA256,
			Width: f.Width, Height: f.Height, Data: f.Data})
	}
	return out
}

// importFiles checks a message's files as read from a file with the caps
// and checks of attaching one (attach.Check: type by the bytes, size,
// pixels, safe names). What the file says of a file's kind, type and size
// is not trusted: it is read again from the bytes, and a sha256 that does
// not match them refuses the import.
func importFiles(in []Attachment) ([]chat.AttachmentData, error) {
	out := make([]chat.AttachmentData, 0, len(in))
	for i, a := range in {
		f, err := attach.Check(a.Name, a.Data)
		if err != nil {
			return nil, importError("attachments[%d]: %v", i, err)
		}
		if a.SHA256 != "" && a.SHA256 != f.SHA256 {
			return nil, importError("attachments[%d] (%s): its sha256 does not match its bytes", i, f.Name)
		}
		out = append(out, f)
	}
	if err := attach.CheckMessage(out); err != nil {
		return nil, importError("%v", err)
	}
	return out, nil
}

// htmlFile is an attachment on the HTML page: an image inline as a data:
// URL made here from its bytes (only for the four image types whose bytes
// were checked on the way in; never SVG), other files by name.
type htmlFile struct {
	Name, Size string
	Src        template.URL
}

var pictureTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

func htmlFiles(in []Attachment) []htmlFile {
	var out []htmlFile
	for _, a := range in {
		f := htmlFile{Name: a.Name, Size: attach.Size(len(a.Data))}
		if a.Kind == attach.KindImage && pictureTypes[a.MIME] && len(a.Data) > 0 {
			// The type is sniffed again: what a file says is not trusted.
			if mime := sniffPicture(a.Data); mime != "" {
				f.Src = template.URL("data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(a.Data))
			}
		}
		out = append(out, f)
	}
	return out
}

func sniffPicture(b []byte) string {
	if f, err := attach.Check("x", b); err == nil && f.Kind == attach.KindImage {
		return f.MIME
	}
	return ""
}

// mdFiles lists a message's attachments by name and size; written to a
// file (links set), each links to its file in the folder beside it, and
// images are shown.
func mdFiles(in []Attachment, links *mdLinks) string {
	var lines []string
	for _, a := range in {
		what := "file"
		if a.Kind == attach.KindImage {
			what = fmt.Sprintf("image, %d×%d", a.Width, a.Height)
		}
		name := mdInline(a.Name)
		if links != nil {
			name = "[" + name + "](" + links.link(a) + ")"
		}
		lines = append(lines, fmt.Sprintf("- 📎 %s (%s, %s)", name, what, attach.Size(len(a.Data))))
	}
	if links != nil {
		for _, a := range in {
			if a.Kind == attach.KindImage && sniffPicture(a.Data) != "" {
				lines = append(lines, "", "!["+mdInline(a.Name)+"]("+links.link(a)+")")
			}
		}
	}
	return strings.Join(lines, "\n")
}
