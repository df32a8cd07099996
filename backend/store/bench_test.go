package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"airlock/backend/chat"
)

// Benchmarks of the history features. Each builds its database once (a
// few seconds for the large ones), outside the timed loop:
//
//	go test ./backend/store -run '^$' -bench 'ListMessages|Search|UpdateMessage'

// words is a vocabulary with a Zipf-like use: a few words are everywhere,
// most are rare, as in real chats.
var words = func() []string {
	base := strings.Fields(`the a to of and in is it you that for on with as this be are or can not use file
		function code error data value list string return if then when from by an at will should would
		python go rust javascript server client request response database query index table column row
		model answer question tool call result workspace folder path read write edit run test build deploy
		config setting option default version update change branch merge commit review approve deny cancel`)
	for i := range 3000 {
		base = append(base, fmt.Sprintf("w%dx%d", i, i*7%13))
	}
	return base
}()

func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		// Zipf-ish: squaring a uniform number favours low indexes.
		f := r.Float64()
		b.WriteString(words[int(f*f*f*float64(len(words)))])
	}
	return b.String()
}

var cjkTexts = []string{
	"我想搜索以前的聊天记录，看看上次的代码",
	"这个函数返回一个列表，列表推导式很好用",
	"数据库索引可以加快查询速度",
	"東京タワーの高さは333メートルです",
	"안녕하세요 데이터베이스 질문이 있습니다",
}

// seedChat stores one chat of n messages (user and assistant turns, one in
// ten answers with a tool call, one in twenty messages in CJK) in a single
// transaction, and returns its ID.
func seedChat(tb testing.TB, s *Store, n int, seed uint64) string {
	tb.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	now := chat.Now() - int64(n)*1000
	c := chat.Chat{ID: chat.NewID(), Title: fmt.Sprintf("chat %d", seed), CreatedAt: now, UpdatedAt: now, ChatOptions: chat.DefaultChatOptions()}
	d := ChatData{Chat: c}
	parent := ""
	for i := range n {
		role := chat.RoleUser
		if i%2 == 1 {
			role = chat.RoleAssistant
		}
		text := randomText(r, 10+r.IntN(60))
		if i%20 == 7 {
			text = cjkTexts[r.IntN(len(cjkTexts))] + " " + text
		}
		m := chat.Message{ID: chat.NewID(), ChatID: c.ID, ParentID: parent, Role: role, Kind: chat.KindText,
			Content: text, Status: chat.StatusComplete, CreatedAt: now + int64(i)*1000, UpdatedAt: now + int64(i)*1000}
		d.Messages = append(d.Messages, m)
		if role == chat.RoleAssistant && i%10 == 1 {
			d.Calls = append(d.Calls, chat.Call{ID: chat.NewID(), ModelCallID: "c", ChatID: c.ID, MessageID: m.ID, Name: "read_file",
				Arguments: []byte(fmt.Sprintf(`{"path":"src/%s.go"}`, words[r.IntN(len(words))])), State: chat.CallDone,
				Result: randomText(r, 20), ResultState: chat.ToolSuccess, CreatedAt: m.CreatedAt, UpdatedAt: m.CreatedAt})
		}
		parent = m.ID
	}
	d.Chat.LeafID = parent
	if _, err := s.ImportChats(context.Background(), []ChatData{d}); err != nil {
		tb.Fatal(err)
	}
	return c.ID
}

func BenchmarkListMessages10k(b *testing.B) {
	ctx := context.Background()
	s := newStore(b)
	id := seedChat(b, s, 10_000, 1)
	b.ReportAllocs()
	for b.Loop() {
		msgs, err := s.ListMessages(ctx, id)
		if err != nil || len(msgs) != 10_000 {
			b.Fatalf("%d messages, %v", len(msgs), err)
		}
	}
}

// The UI's first screen of a 10,000-message chat: the last 50 of the
// path, and their tool calls.
func BenchmarkListMessagesPage10k(b *testing.B) {
	ctx := context.Background()
	s := newStore(b)
	id := seedChat(b, s, 10_000, 1)
	b.ReportAllocs()
	for b.Loop() {
		msgs, err := s.ListMessagesPage(ctx, id, "", 50)
		if err != nil || len(msgs) != 50 {
			b.Fatalf("%d messages, %v", len(msgs), err)
		}
		ids := make([]string, len(msgs))
		for i, m := range msgs {
			ids[i] = m.ID
		}
		if _, err := s.CallsOfMessages(ctx, ids); err != nil {
			b.Fatal(err)
		}
	}
}

// Scrolling up to the start, a page at a time.
func BenchmarkListMessagesAllPages10k(b *testing.B) {
	ctx := context.Background()
	s := newStore(b)
	id := seedChat(b, s, 10_000, 1)
	for b.Loop() {
		n := 0
		for before := ""; ; {
			page, err := s.ListMessagesPage(ctx, id, before, 100)
			if err != nil {
				b.Fatal(err)
			}
			n += len(page)
			if len(page) == 0 || page[0].ParentID == "" {
				break
			}
			before = page[0].ID
		}
		if n != 10_000 {
			b.Fatalf("%d messages", n)
		}
	}
}

// Search over 100,000 messages in 20 chats.
func BenchmarkSearch100k(b *testing.B) {
	ctx := context.Background()
	s := newStore(b)
	var first string
	for i := range 20 {
		id := seedChat(b, s, 5_000, uint64(i+1))
		if i == 0 {
			first = id
		}
	}
	for _, q := range []struct{ name, query string }{
		{"common-word", "the"},
		{"two-words", "database index"},
		{"rare-word", "w2999x9"},
		{"prefix", "data"},
		{"tool-result", "w17x2"},
		{"no-match", "zzzzzz"},
		{"cjk-trigram", "聊天记录"},
		{"cjk-2-chars", "列表"},
	} {
		b.Run(q.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Search(ctx, q.query, 50); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("in-chat-common-word", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.SearchChat(ctx, first, "the"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("in-chat-cjk-2-chars", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.SearchChat(ctx, first, "列表"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// What the search triggers cost when an answer settles (streaming →
// complete: indexed) and when a settled message is edited (reindexed).
// BenchmarkUpdateMessage is the streaming case (no indexing at all).
func BenchmarkUpdateMessageIndexed(b *testing.B) {
	ctx := context.Background()
	s := newStore(b)
	c, _ := s.CreateChat(ctx, "bench")
	r := rand.New(rand.NewPCG(1, 2))
	text := randomText(r, 400) // a long answer, ~2.5 KB
	m, _ := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Content: text})
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		m.Content = text + fmt.Sprint(" ", i)
		if err := s.UpdateMessage(ctx, m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAddMessage(b *testing.B) {
	ctx := context.Background()
	s := newStore(b)
	c, _ := s.CreateChat(ctx, "bench")
	r := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleUser, Content: randomText(r, 40)}); err != nil {
			b.Fatal(err)
		}
	}
}
