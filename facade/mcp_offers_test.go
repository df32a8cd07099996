package facade

import (
	"strings"
	"testing"

	"airlock/backend/tools/mcp"
)

// What a prompt or a resource brings is checked like an attached file: an
// image is sniffed, a PDF is refused with the attachment's own sentence,
// too many files are refused naming the cap.
func TestOfferedFilesAreCheckedLikeAttachments(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")
	got, err := checkedPart(mcp.Part{Text: "hi", Files: []mcp.File{{Name: "a/b/notes.md", Data: []byte("# Notes")}, {Name: "pixel", Data: png}}}, nil)
	if err != nil || got.Text != "hi" || len(got.Files) != 2 || got.Files[0].Name != "notes.md" || got.Files[0].Image != "" || got.Files[1].Image != "image/png" {
		t.Fatalf("part = %+v, %v", got, err)
	}
	if _, err := checkedPart(mcp.Part{Files: []mcp.File{{Name: "doc.pdf", Data: []byte("%PDF-1.7 ...")}}}, nil); err == nil || !strings.Contains(err.Error(), "PDF") {
		t.Fatalf("a PDF: %v", err)
	}
	many := make([]mcp.File, 21)
	for i := range many {
		many[i] = mcp.File{Name: "f.txt", Data: []byte("x")}
	}
	if _, err := checkedPart(mcp.Part{Files: many}, nil); err == nil || !strings.Contains(err.Error(), "at most 20") {
		t.Fatalf("21 files: %v", err)
	}
}
