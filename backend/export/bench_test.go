package export

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/store"
)

// seedLongChat stores one chat of n messages (a tool call on one answer in
// ten, Markdown in the answers) and returns its ID.
func seedLongChat(tb testing.TB, s *store.Store, n int) string {
	tb.Helper()
	c := chat.Chat{ID: "long", Title: "A long chat", CreatedAt: t0, UpdatedAt: t0, ChatOptions: chat.DefaultChatOptions()}
	d := store.ChatData{Chat: c}
	parent := ""
	for i := range n {
		m := chat.Message{ID: fmt.Sprintf("m%05d", i), ChatID: c.ID, ParentID: parent, Kind: chat.KindText,
			Status: chat.StatusComplete, CreatedAt: t0 + int64(i)*1000, UpdatedAt: t0 + int64(i)*1000}
		if i%2 == 0 {
			m.Role, m.Content = chat.RoleUser, fmt.Sprintf("Question %d: how do I sort a list in Go, and why is it stable?", i)
		} else {
			m.Role, m.Model = chat.RoleAssistant, "demo"
			m.Content = fmt.Sprintf("## Answer %d\n\nUse `slices.SortStableFunc`:\n\n```go\nslices.SortStableFunc(xs, cmp)\n```\n\n"+
				"| n | time |\n|---|---|\n| 10 | fast |\n\n- **stable**: equal elements keep their order\n- see [the docs](https://pkg.go.dev/slices)", i)
			if i%10 == 1 {
				d.Calls = append(d.Calls, chat.Call{ID: fmt.Sprintf("c%05d", i), ModelCallID: "call", ChatID: c.ID, MessageID: m.ID,
					Name: "read_file", Arguments: json.RawMessage(`{"path":"main.go"}`), State: chat.CallDone,
					DecidedBy: chat.ByUser, DecidedAt: m.CreatedAt, Result: "package main\n\nfunc main() {}\n",
					ResultState: chat.ToolSuccess, CreatedAt: m.CreatedAt, UpdatedAt: m.CreatedAt})
			}
		}
		d.Messages = append(d.Messages, m)
		parent = m.ID
	}
	d.Chat.LeafID = parent
	if _, err := s.ImportChats(context.Background(), []store.ChatData{d}); err != nil {
		tb.Fatal(err)
	}
	return c.ID
}

// Exporting a chat of 10,000 messages: reading it (Build) and writing each
// format.
func BenchmarkExport10k(b *testing.B) {
	ctx := context.Background()
	s := newStore(b)
	id := seedLongChat(b, s, 10_000)
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			if _, err := Build(ctx, s, []string{id}); err != nil {
				b.Fatal(err)
			}
		}
	})
	bundle, _ := Build(ctx, s, []string{id})
	for _, format := range []string{"json", "md", "html"} {
		b.Run(format, func(b *testing.B) {
			for b.Loop() {
				if err := Write(io.Discard, bundle, format); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("read-json", func(b *testing.B) {
		var buf countingBuffer
		WriteJSON(&buf, bundle)
		b.SetBytes(int64(len(buf.b)))
		for b.Loop() {
			if _, err := ReadJSON(&byteReader{b: buf.b}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// Importing a 10,000-message chat into an empty database (one
// transaction, indexed for search as it goes).
func BenchmarkImport10k(b *testing.B) {
	ctx := context.Background()
	src := newStore(b)
	id := seedLongChat(b, src, 10_000)
	bundle, _ := Build(ctx, src, []string{id})
	for b.Loop() {
		b.StopTimer()
		dst := newStore(b)
		b.StartTimer()
		if _, err := Import(ctx, dst, bundle); err != nil {
			b.Fatal(err)
		}
	}
}

type countingBuffer struct{ b []byte }

func (c *countingBuffer) Write(p []byte) (int, error) { c.b = append(c.b, p...); return len(p), nil }

type byteReader struct {
	b   []byte
	off int
}

func (r *byteReader) Read(p []byte) (int, error) {
	if r.off >= len(r.b) {
		return 0, io.EOF
	}
	n := copy(p, r.b[r.off:])
	r.off += n
	return n, nil
}
