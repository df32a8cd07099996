package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"airlock/backend/chat"
)

func file(name, data string) chat.AttachmentData {
	sum := sha256Hex([]byte(data))
	return chat.AttachmentData{Attachment: chat.Attachment{Name: name, Kind: "text", MIME: "text/plain", Size: int64(len(data)), SHA256: sum}, Data: []byte(data)}
}

func blobCount(t *testing.T, s *Store) int {
	var n int
	if err := s.db.QueryRow("SELECT count(*) FROM blobs").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The same bytes are stored once; a chat's deletion removes what only it used.
func TestAttachmentsDedupeAndDeleteWithChat(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	a, _ := s.CreateChat(ctx, "a")
	b, _ := s.CreateChat(ctx, "b")
	ma, _ := s.AddMessage(ctx, chat.Message{ChatID: a.ID, Role: chat.RoleUser, Content: "x"})
	mb, _ := s.AddMessage(ctx, chat.Message{ChatID: b.ID, Role: chat.RoleUser, Content: "y"})
	shared, own := file("shared.txt", "shared bytes"), file("own.txt", "only chat a")
	if err := s.AttachFiles(ctx, ma.ID, []chat.AttachmentData{shared, own, shared}); err != nil {
		t.Fatal(err)
	}
	if err := s.AttachFiles(ctx, mb.ID, []chat.AttachmentData{file("renamed.txt", "shared bytes")}); err != nil {
		t.Fatal(err)
	}
	if n := blobCount(t, s); n != 2 {
		t.Fatalf("%d blobs stored, want 2 (deduplicated)", n)
	}
	msgs, _ := s.ListMessages(ctx, a.ID)
	if got := msgs[0].Attachments; len(got) != 3 || got[0].Name != "shared.txt" || got[1].Name != "own.txt" {
		t.Fatalf("attachments listed: %+v", got)
	}
	page, _ := s.ListMessagesPage(ctx, b.ID, "", 10)
	if len(page[0].Attachments) != 1 || page[0].Attachments[0].Name != "renamed.txt" {
		t.Fatalf("page attachments: %+v", page[0].Attachments)
	}
	full, _ := s.MessageAttachments(ctx, ma.ID)
	if len(full) != 3 || !bytes.Equal(full[1].Data, own.Data) {
		t.Fatalf("with bytes: %+v", full)
	}
	if err := s.DeleteChat(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if n := blobCount(t, s); n != 1 {
		t.Fatalf("%d blobs after deleting chat a, want 1 (the one chat b still uses)", n)
	}
	if _, err := s.Blob(ctx, own.SHA256); err == nil {
		t.Error("the blob only chat a used survived it")
	}
	if d, err := s.Blob(ctx, shared.SHA256); err != nil || string(d) != "shared bytes" {
		t.Errorf("the shared blob went: %v", err)
	}
}

func TestVisionUserWordWins(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	if err := s.SetVision(ctx, chat.Vision{ProviderID: "p", Model: "m", Sees: "yes", Source: "user"}); err != nil {
		t.Fatal(err)
	}
	_ = s.SetVision(ctx, chat.Vision{ProviderID: "p", Model: "m", Sees: "no", Source: "learned"})
	if v, _ := s.GetVision(ctx, "p", "m"); v.Sees != "yes" || v.Source != "user" {
		t.Errorf("a learned answer overrode the user's: %+v", v)
	}
	if !s.ToolImages(ctx, "c") {
		t.Error("tools' images are off by default")
	}
}

func sha256Hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func TestSearchHitsNameAttachments(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	c, _ := s.CreateChat(ctx, "c")
	m, _ := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleUser, Content: "quarterly figures"})
	if err := s.AttachFiles(ctx, m.ID, []chat.AttachmentData{file("q3.csv", "a,b")}); err != nil {
		t.Fatal(err)
	}
	hits, err := s.Search(ctx, "quarterly", 10)
	if err != nil || len(hits) != 1 || len(hits[0].Attachments) != 1 || hits[0].Attachments[0] != "q3.csv" {
		t.Fatalf("hits %+v, %v", hits, err)
	}
}
