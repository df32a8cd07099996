package export

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"strings"
	"testing"

	"airlock/backend/attach"
	"airlock/backend/chat"
	"airlock/backend/store"
)

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(t.TempDir() + "/airlock.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// A chat with an image and a text file goes out as JSON and comes back
// byte-identical; the file's word on a file's type is not trusted.
func TestAttachmentsRoundTrip(t *testing.T) {
	ctx := context.Background()
	src := openStore(t)
	c, _ := src.CreateChat(ctx, "pictures")
	m, _ := src.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleUser, Content: "look"})
	var pic bytes.Buffer
	_ = png.Encode(&pic, image.NewRGBA(image.Rect(0, 0, 7, 5)))
	img, err := attach.Check("shot.png", pic.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	txt, _ := attach.Check("notes.md", []byte("# notes\n"))
	if err := src.AttachFiles(ctx, m.ID, []chat.AttachmentData{img, txt}); err != nil {
		t.Fatal(err)
	}
	b, err := Build(ctx, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteJSON(&out, b); err != nil {
		t.Fatal(err)
	}
	read, err := ReadJSON(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	dst := openStore(t)
	if _, err := Import(ctx, dst, read); err != nil {
		t.Fatal(err)
	}
	back, err := dst.MessageAttachments(ctx, m.ID)
	if err != nil || len(back) != 2 {
		t.Fatalf("imported attachments: %d, %v", len(back), err)
	}
	if !bytes.Equal(back[0].Data, pic.Bytes()) || back[0].Name != "shot.png" || back[0].Width != 7 || back[1].Name != "notes.md" || string(back[1].Data) != "# notes\n" {
		t.Errorf("not byte-identical: %+v / %+v", back[0].Attachment, back[1].Attachment)
	}

	// A forged file: an SVG claiming to be a PNG, a wrong sha256.
	for name, forge := range map[string]func(a map[string]any){
		"svg as png": func(a map[string]any) { a["data"] = []byte(`<svg onload="alert(1)"/>`) },
		"bad sha256": func(a map[string]any) { a["sha256"] = strings.Repeat("0", 64) },
	} {
		var doc map[string]any
		_ = json.Unmarshal(out.Bytes(), &doc)
		msg := doc["chats"].([]any)[0].(map[string]any)["messages"].([]any)[0].(map[string]any)
		forge(msg["attachments"].([]any)[0].(map[string]any))
		raw, _ := json.Marshal(doc)
		r, err := ReadJSON(bytes.NewReader(raw))
		if err == nil {
			_, err = Import(ctx, openStore(t), r)
		}
		if err == nil || !strings.Contains(err.Error(), "attachments[0]") {
			t.Errorf("%s: imported, or refused for another reason: %v", name, err)
		}
	}
}

// HTML shows images inline as data: URLs made from checked bytes, names
// escaped; Markdown lists the files.
func TestAttachmentsInHTMLAndMarkdown(t *testing.T) {
	var pic bytes.Buffer
	_ = png.Encode(&pic, image.NewRGBA(image.Rect(0, 0, 3, 2)))
	b := Bundle{Format: Format, Version: Version, Chats: []Chat{{ID: "c", LeafID: "m", Messages: []Message{{ID: "m", Role: "user", Content: "hi",
		Attachments: []Attachment{
			{Name: `<script>x</script>.png`, Kind: "image", MIME: "image/png", Width: 3, Height: 2, Data: pic.Bytes()},
			{Name: "fake.png", Kind: "image", MIME: "image/png", Data: []byte(`<svg onload="alert(1)"/>`)},
			{Name: "notes.md", Kind: "text", MIME: "text/markdown", Data: []byte("x")},
		}}}}}}
	var h bytes.Buffer
	if err := WriteHTML(&h, b); err != nil {
		t.Fatal(err)
	}
	page := h.String()
	if !strings.Contains(page, `src="data:image/png;base64,`) || strings.Count(page, "data:image/") != 1 {
		t.Errorf("want exactly one inline image (the real PNG): %d", strings.Count(page, "data:image/"))
	}
	if strings.Contains(page, "<script>x</script>") || strings.Contains(page, "onload") {
		t.Error("an attachment's name or bytes reached the page unescaped")
	}
	if !strings.Contains(page, "notes.md") {
		t.Error("the text file is not named")
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "📎 notes.md") || !strings.Contains(md.String(), "image, 3×2") {
		t.Errorf("markdown: %s", md.String())
	}
}
