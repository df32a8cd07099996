package export

import (
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
