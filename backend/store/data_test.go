package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"airlock/backend/chat"
)

// tick makes sure chat.Now() has moved on, so activity order is not a tie.
func tick() { time.Sleep(3 * time.Millisecond) }

func TestChatCRUD(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)

	cs, err := s.ListChats(ctx)
	if err != nil || cs == nil || len(cs) != 0 {
		t.Fatalf("ListChats on empty store = %#v, %v; want empty non-nil", cs, err)
	}

	c, err := s.CreateChat(ctx, "  Hello  ")
	if err != nil {
		t.Fatal(err)
	}
	if c.ID == "" || c.Title != "Hello" || c.CreatedAt == 0 || c.UpdatedAt != c.CreatedAt {
		t.Fatalf("CreateChat = %+v", c)
	}
	if got, err := s.GetChat(ctx, c.ID); err != nil || !reflect.DeepEqual(got, c) {
		t.Fatalf("GetChat = %+v, %v; want %+v", got, err, c)
	}

	tick()
	r, err := s.RenameChat(ctx, c.ID, "  Renamed ")
	if err != nil {
		t.Fatal(err)
	}
	if r.Title != "Renamed" || r.UpdatedAt != c.UpdatedAt || r.CreatedAt != c.CreatedAt {
		t.Fatalf("RenameChat = %+v; want title Renamed and times unchanged from %+v", r, c)
	}
	_, err = s.RenameChat(ctx, c.ID, "   ")
	wantErr(t, err, chat.ErrInvalid)
	_, err = s.RenameChat(ctx, "nope", "x")
	wantErr(t, err, chat.ErrNotFound)

	_, err = s.GetChat(ctx, "missing-id")
	wantErr(t, err, chat.ErrNotFound)
	if err.Error() != "chat missing-id not found" {
		t.Errorf("message = %q", err.Error())
	}
	var ce *chat.Error
	if !errors.As(err, &ce) || ce.Code == "" {
		t.Errorf("error %v is not a *chat.Error with a code", err)
	}

	if err := s.DeleteChat(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	_, err = s.GetChat(ctx, c.ID)
	wantErr(t, err, chat.ErrNotFound)
	wantErr(t, s.DeleteChat(ctx, c.ID), chat.ErrNotFound)
}

func TestListChatsByActivity(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	var ids []string
	for _, title := range []string{"a", "b", "c"} {
		c, err := s.CreateChat(ctx, title)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID)
		tick()
	}
	order := func() string {
		cs, err := s.ListChats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var titles []string
		for _, c := range cs {
			titles = append(titles, c.Title)
		}
		return strings.Join(titles, "")
	}
	if got := order(); got != "cba" {
		t.Fatalf("order = %s, want cba (newest first)", got)
	}
	if _, err := s.AddMessage(ctx, chat.Message{ChatID: ids[0], Role: chat.RoleUser, Content: "hi"}); err != nil {
		t.Fatal(err)
	}
	if got := order(); got != "acb" {
		t.Fatalf("after a message in a: order = %s, want acb", got)
	}
	// Renaming is not activity.
	if _, err := s.RenameChat(ctx, ids[2], "c"); err != nil {
		t.Fatal(err)
	}
	if got := order(); got != "acb" {
		t.Fatalf("after rename: order = %s, want acb", got)
	}
}

func TestListChatsTieBreaksByID(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	for _, id := range []string{"1", "3", "2"} {
		if _, err := s.db.ExecContext(ctx,
			"INSERT INTO chats (id, title, created_at, updated_at) VALUES (?, ?, 5, 5)", id, id); err != nil {
			t.Fatal(err)
		}
	}
	cs, _ := s.ListChats(ctx)
	if len(cs) != 3 || cs[0].ID != "3" || cs[1].ID != "2" || cs[2].ID != "1" {
		t.Fatalf("ListChats = %+v, want ids 3,2,1", cs)
	}
}

func TestMessageCRUD(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "chat")

	msgs, err := s.ListMessages(ctx, c.ID)
	if err != nil || msgs == nil || len(msgs) != 0 {
		t.Fatalf("ListMessages on empty chat = %#v, %v; want empty non-nil", msgs, err)
	}

	tick()
	m, err := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleUser, Content: "hello"})
	if err != nil {
		t.Fatal(err)
	}
	if m.ID == "" || m.Kind != chat.KindText || m.Status != chat.StatusComplete || m.CreatedAt == 0 || m.UpdatedAt == 0 {
		t.Fatalf("AddMessage did not fill defaults: %+v", m)
	}
	if got, err := s.GetMessage(ctx, m.ID); err != nil || !reflect.DeepEqual(got, m) {
		t.Fatalf("GetMessage = %+v, %v; want %+v", got, err, m)
	}
	if got, _ := s.GetChat(ctx, c.ID); got.UpdatedAt <= c.UpdatedAt {
		t.Fatalf("chat updated_at %d not bumped past %d", got.UpdatedAt, c.UpdatedAt)
	}

	a, err := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Status: chat.StatusStreaming})
	if err != nil {
		t.Fatal(err)
	}
	tick()
	a.Content, a.Reasoning, a.Status, a.Model = "answer", "thinking", chat.StatusError, "gpt-x"
	a.ErrorCode, a.ErrorMessage = "rate_limited", "slow down"
	a.Usage = chat.Usage{PromptTokens: 3, CompletionTokens: 4, TotalTokens: 7}
	if err := s.UpdateMessage(ctx, a); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetMessage(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.UpdatedAt <= a.UpdatedAt {
		t.Errorf("UpdateMessage did not set updated_at: %d <= %d", got.UpdatedAt, a.UpdatedAt)
	}
	got.UpdatedAt = a.UpdatedAt
	if !reflect.DeepEqual(got, a) {
		t.Fatalf("after UpdateMessage got %+v, want %+v", got, a)
	}

	msgs, _ = s.ListMessages(ctx, c.ID)
	if len(msgs) != 2 || msgs[0].ID != m.ID || msgs[1].ID != a.ID {
		t.Fatalf("ListMessages = %+v", msgs)
	}

	// Not found and invalid input.
	_, err = s.AddMessage(ctx, chat.Message{ChatID: "nope", Role: chat.RoleUser})
	wantErr(t, err, chat.ErrNotFound)
	_, err = s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: "robot"})
	wantErr(t, err, chat.ErrInvalid)
	_, err = s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleUser, Status: "done"})
	wantErr(t, err, chat.ErrInvalid)
	_, err = s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleUser, Kind: "image"})
	wantErr(t, err, chat.ErrInvalid)
	wantErr(t, s.UpdateMessage(ctx, chat.Message{ID: "nope", Status: chat.StatusComplete}), chat.ErrNotFound)
	wantErr(t, s.UpdateMessage(ctx, chat.Message{ID: a.ID, Status: "bogus"}), chat.ErrInvalid)
	_, err = s.GetMessage(ctx, "nope")
	wantErr(t, err, chat.ErrNotFound)
	_, err = s.ListMessages(ctx, "nope")
	wantErr(t, err, chat.ErrNotFound)

	if err := s.DeleteMessage(ctx, m.ID); err != nil {
		t.Fatal(err)
	}
	wantErr(t, s.DeleteMessage(ctx, m.ID), chat.ErrNotFound)
	msgs, _ = s.ListMessages(ctx, c.ID)
	if len(msgs) != 1 || msgs[0].ID != a.ID {
		t.Fatalf("after delete ListMessages = %+v", msgs)
	}
}

func TestSchemaChecksRoleAndStatus(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "x")
	for _, bad := range [][2]string{{"robot", "complete"}, {"user", "done"}} {
		_, err := s.db.ExecContext(ctx, `INSERT INTO messages (id, chat_id, role, status, created_at, updated_at)
			VALUES (?, ?, ?, ?, 1, 1)`, chat.NewID(), c.ID, bad[0], bad[1])
		if err == nil {
			t.Errorf("schema accepted role=%s status=%s", bad[0], bad[1])
		}
	}
}

func TestMessageOrder(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "x")
	// Since 0004 the conversation path decides the order, not the clock:
	// each message follows the one added before it, whatever time it
	// claims (clocks can step back; imported times can tie).
	for _, m := range []chat.Message{
		{ID: "b", CreatedAt: 20},
		{ID: "c", CreatedAt: 10},
		{ID: "a", CreatedAt: 20},
		{ID: "d", CreatedAt: 5},
	} {
		m.ChatID, m.Role = c.ID, chat.RoleUser
		if _, err := s.AddMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	msgs, _ := s.ListMessages(ctx, c.ID)
	var ids string
	for _, m := range msgs {
		ids += m.ID
	}
	if ids != "bcad" {
		t.Fatalf("order = %s, want bcad (the order they were added in)", ids)
	}
	// Messages from NewID in quick succession keep insertion order.
	c2, _ := s.CreateChat(ctx, "y")
	var want []string
	for i := range 50 {
		m, err := s.AddMessage(ctx, chat.Message{ChatID: c2.ID, Role: chat.RoleUser, Content: fmt.Sprint(i)})
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, m.ID)
	}
	msgs, _ = s.ListMessages(ctx, c2.ID)
	for i, m := range msgs {
		if m.ID != want[i] {
			t.Fatalf("message %d is %s, want %s", i, m.ID, want[i])
		}
	}
}

func TestDeleteChatCascades(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "doomed")
	other, _ := s.CreateChat(ctx, "kept")
	m, _ := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleUser, Content: "1"})
	s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Content: "2"})
	kept, _ := s.AddMessage(ctx, chat.Message{ChatID: other.ID, Role: chat.RoleUser, Content: "3"})

	if err := s.DeleteChat(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	_, err := s.GetMessage(ctx, m.ID)
	wantErr(t, err, chat.ErrNotFound)
	var n int
	s.db.QueryRowContext(ctx, "SELECT count(*) FROM messages WHERE chat_id = ?", c.ID).Scan(&n)
	if n != 0 {
		t.Fatalf("%d orphan messages left", n)
	}
	if _, err := s.GetMessage(ctx, kept.ID); err != nil {
		t.Fatalf("other chat's message: %v", err)
	}
}

func TestInterruptStreaming(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "x")
	add := func(st chat.Status) chat.Message {
		m, err := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Status: st, Content: "partial"})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	s1, s2, done := add(chat.StatusStreaming), add(chat.StatusStreaming), add(chat.StatusComplete)

	n, err := s.InterruptStreaming(ctx)
	if err != nil || n != 2 {
		t.Fatalf("InterruptStreaming = %d, %v; want 2", n, err)
	}
	for _, m := range []chat.Message{s1, s2} {
		got, _ := s.GetMessage(ctx, m.ID)
		if got.Status != chat.StatusInterrupted || got.Content != "partial" {
			t.Errorf("message %s: status %s content %q", m.ID, got.Status, got.Content)
		}
	}
	if got, _ := s.GetMessage(ctx, done.ID); got.Status != chat.StatusComplete {
		t.Errorf("complete message became %s", got.Status)
	}
	if n, _ := s.InterruptStreaming(ctx); n != 0 {
		t.Fatalf("second InterruptStreaming = %d, want 0", n)
	}
}

func TestSettings(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)

	st, err := s.GetSettings(ctx)
	if err != nil || st != chat.DefaultSettings() {
		t.Fatalf("fresh GetSettings = %+v, %v; want defaults %+v", st, err, chat.DefaultSettings())
	}

	want := chat.Settings{ActiveProviderID: "p1", SystemPrompt: "Be brief.\nReally.", Temperature: 0.7, Language: "zh", Theme: "dark",
		AutoContinue: false, MaxTurns: 7, ToolTimeoutSeconds: 12, ToolMode: chat.ToolModeNative}
	if err := s.SaveSettings(ctx, want); err != nil {
		t.Fatal(err)
	}
	if st, err = s.GetSettings(ctx); err != nil || st != want {
		t.Fatalf("GetSettings = %+v, %v; want %+v", st, err, want)
	}

	for _, bad := range []chat.Settings{
		{ActiveProviderID: "demo", Temperature: 2.5, Language: "en", Theme: "light", MaxTurns: 5, ToolTimeoutSeconds: 5},
		{ActiveProviderID: "demo", Temperature: 1, Language: "fr", Theme: "light", MaxTurns: 5, ToolTimeoutSeconds: 5},
		{ActiveProviderID: "demo", Temperature: 1, Language: "en", Theme: "pink", MaxTurns: 5, ToolTimeoutSeconds: 5},
		{ActiveProviderID: "", Temperature: 1, Language: "en", Theme: "light", MaxTurns: 5, ToolTimeoutSeconds: 5},
		{ActiveProviderID: "demo", Temperature: 1, Language: "en", Theme: "light", MaxTurns: 0, ToolTimeoutSeconds: 5},
		{ActiveProviderID: "demo", Temperature: 1, Language: "en", Theme: "light", MaxTurns: 5, ToolTimeoutSeconds: 0},
	} {
		wantErr(t, s.SaveSettings(ctx, bad), chat.ErrInvalid)
	}
	if st, _ = s.GetSettings(ctx); st != want {
		t.Fatalf("a rejected save changed settings to %+v", st)
	}
}

func TestSettingsPartialAndRaw(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)

	if _, ok, err := s.GetValue(ctx, "window.size"); ok || err != nil {
		t.Fatalf("GetValue of unset key: ok=%v err=%v", ok, err)
	}
	if err := s.SetValue(ctx, "window.size", "800x600"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetValue(ctx, "window.size", "1024x768"); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := s.GetValue(ctx, "window.size"); v != "1024x768" || !ok || err != nil {
		t.Fatalf("GetValue = %q %v %v", v, ok, err)
	}
	wantErr(t, s.SetValue(ctx, "", "x"), chat.ErrInvalid)

	// Only some keys stored, one unreadable: the rest are defaults.
	s.SetValue(ctx, keyTheme, "light")
	s.SetValue(ctx, keyTemperature, "warm")
	want := chat.DefaultSettings()
	want.Theme = "light"
	if st, err := s.GetSettings(ctx); err != nil || st != want {
		t.Fatalf("GetSettings = %+v, %v; want %+v", st, err, want)
	}
}

func TestProviders(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)

	ps, err := s.ListProviders(ctx)
	if err != nil || len(ps) != 1 {
		t.Fatalf("fresh ListProviders = %+v, %v", ps, err)
	}
	demo := chat.Provider{ID: chat.DemoProviderID, Name: "Demo (offline)", Model: "airlock-demo", Demo: true, Kind: chat.APIOpenAI}
	if ps[0] != demo {
		t.Fatalf("seeded demo = %+v, want %+v", ps[0], demo)
	}

	zed, err := s.SaveProvider(ctx, chat.Provider{Name: " zed ", BaseURL: " https://z.example/v1 ", APIKey: "sk-1\n", Model: "m", Demo: true})
	if err != nil {
		t.Fatal(err)
	}
	if zed.ID == "" || zed.Name != "zed" || zed.BaseURL != "https://z.example/v1" || zed.APIKey != "sk-1" || zed.Demo {
		t.Fatalf("SaveProvider (insert) = %+v", zed)
	}
	alpha, err := s.SaveProvider(ctx, chat.Provider{Name: "Alpha", BaseURL: "http://localhost:11434/v1"})
	if err != nil {
		t.Fatal(err)
	}
	ps, _ = s.ListProviders(ctx)
	if len(ps) != 3 || ps[0].ID != chat.DemoProviderID || ps[1].ID != alpha.ID || ps[2].ID != zed.ID {
		t.Fatalf("ListProviders order = %+v, want demo, Alpha, zed", ps)
	}

	zed.Model = "m2"
	if _, err := s.SaveProvider(ctx, zed); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetProvider(ctx, zed.ID); err != nil || got != zed {
		t.Fatalf("GetProvider after update = %+v, %v; want %+v", got, err, zed)
	}

	for _, bad := range []chat.Provider{
		{Name: "", BaseURL: "https://x"},
		{Name: "x", BaseURL: ""},
		{Name: "x", BaseURL: "not a url"},
		{Name: "x", BaseURL: "ftp://x"},
		{ID: zed.ID, Name: " ", BaseURL: "https://x"},
	} {
		_, err := s.SaveProvider(ctx, bad)
		wantErr(t, err, chat.ErrInvalid)
	}
	_, err = s.SaveProvider(ctx, chat.Provider{ID: "ghost", Name: "g", BaseURL: "https://g"})
	wantErr(t, err, chat.ErrNotFound)
	_, err = s.GetProvider(ctx, "ghost")
	wantErr(t, err, chat.ErrNotFound)

	// The demo row may only change its model.
	d, err := s.SaveProvider(ctx, chat.Provider{ID: chat.DemoProviderID, Name: "Hacked", BaseURL: "http://127.0.0.1:1234", APIKey: "k", Model: "demo-2"})
	if err != nil {
		t.Fatal(err)
	}
	want := demo
	want.Model = "demo-2"
	if d != want {
		t.Fatalf("demo after save = %+v, want %+v", d, want)
	}
	if got, _ := s.GetProvider(ctx, chat.DemoProviderID); got != want {
		t.Fatalf("stored demo = %+v, want %+v", got, want)
	}
	wantErr(t, s.DeleteProvider(ctx, chat.DemoProviderID), chat.ErrInvalid)
}

func TestDeleteProviderResetsActive(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	a, _ := s.SaveProvider(ctx, chat.Provider{Name: "a", BaseURL: "https://a"})
	b, _ := s.SaveProvider(ctx, chat.Provider{Name: "b", BaseURL: "https://b"})
	st := chat.DefaultSettings()
	st.ActiveProviderID = a.ID
	st.Theme = "dark"
	if err := s.SaveSettings(ctx, st); err != nil {
		t.Fatal(err)
	}

	// Deleting another provider leaves the active one alone.
	if err := s.DeleteProvider(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetSettings(ctx); got.ActiveProviderID != a.ID {
		t.Fatalf("active = %s, want %s", got.ActiveProviderID, a.ID)
	}

	if err := s.DeleteProvider(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	got, _ := s.GetSettings(ctx)
	if got.ActiveProviderID != chat.DemoProviderID || got.Theme != "dark" {
		t.Fatalf("after deleting the active provider settings = %+v, want demo active and theme kept", got)
	}
	_, err := s.GetProvider(ctx, a.ID)
	wantErr(t, err, chat.ErrNotFound)
	wantErr(t, s.DeleteProvider(ctx, a.ID), chat.ErrNotFound)
}

// The streaming pattern: one goroutine rewrites a growing assistant message
// while others read the chat and write elsewhere. Nothing may fail with
// SQLITE_BUSY, and readers must only ever see whole, growing content.
func TestConcurrentStreamingAndReads(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "stream")
	m, err := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Status: chat.StatusStreaming})
	if err != nil {
		t.Fatal(err)
	}
	other, _ := s.CreateChat(ctx, "other")

	const updates = 300
	stop := make(chan struct{})
	errs := make(chan error, 16)
	var wg sync.WaitGroup

	wg.Go(func() { // the stream
		defer close(stop)
		msg := m
		for i := range updates {
			msg.Content += "tok "
			msg.Usage.CompletionTokens = i + 1
			if i == updates-1 {
				msg.Status = chat.StatusComplete
			}
			if err := s.UpdateMessage(ctx, msg); err != nil {
				errs <- fmt.Errorf("update %d: %w", i, err)
				return
			}
		}
	})
	for range 3 { // the UI
		wg.Go(func() {
			last := 0
			for {
				select {
				case <-stop:
					return
				default:
				}
				msgs, err := s.ListMessages(ctx, c.ID)
				if err != nil {
					errs <- fmt.Errorf("list: %w", err)
					return
				}
				got := msgs[0]
				if len(got.Content) != 4*got.Usage.CompletionTokens || len(got.Content) < last {
					errs <- fmt.Errorf("torn or shrinking read: %d bytes for %d tokens (had %d)",
						len(got.Content), got.Usage.CompletionTokens, last)
					return
				}
				last = len(got.Content)
			}
		})
	}
	wg.Go(func() { // another writer using transactions
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := s.AddMessage(ctx, chat.Message{ChatID: other.ID, Role: chat.RoleUser, Content: fmt.Sprint(i)}); err != nil {
				errs <- fmt.Errorf("add: %w", err)
				return
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	got, _ := s.GetMessage(ctx, m.ID)
	if got.Status != chat.StatusComplete || got.Usage.CompletionTokens != updates || len(got.Content) != 4*updates {
		t.Fatalf("final message: status %s, %d tokens, %d bytes", got.Status, got.Usage.CompletionTokens, len(got.Content))
	}
}

// Two Store values on the same file (as two app instances would be) must
// not trip over each other either.
func TestTwoStoresOneFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s1, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s1.Close()
	s2, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	c, _ := s1.CreateChat(ctx, "shared")
	var wg sync.WaitGroup
	for _, s := range []*Store{s1, s2} {
		wg.Go(func() {
			for i := range 50 {
				if _, err := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleUser, Content: fmt.Sprint(i)}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if msgs, _ := s2.ListMessages(ctx, c.ID); len(msgs) != 100 {
		t.Fatalf("%d messages, want 100", len(msgs))
	}
}

func BenchmarkUpdateMessage(b *testing.B) {
	ctx := context.Background()
	s := newStore(b)
	c, _ := s.CreateChat(ctx, "bench")
	newMsg := func() chat.Message {
		m, err := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Status: chat.StatusStreaming})
		if err != nil {
			b.Fatal(err)
		}
		return m
	}
	m := newMsg()
	chunk := strings.Repeat("word ", 16) // ~250 ms of tokens
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		// A long answer is ~16 KB; then start a new one, so the figure is
		// the cost of persisting a typical growing message.
		if len(m.Content) > 16<<10 {
			m = newMsg()
		}
		m.Content += chunk
		if err := s.UpdateMessage(ctx, m); err != nil {
			b.Fatal(err)
		}
	}
}

// Transactions that read before they write are where deferred SQLite
// transactions fail with SQLITE_BUSY regardless of busy_timeout; withTx
// begins IMMEDIATE so they queue instead.
func TestReadThenWriteTransactionsQueue(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 20 {
				err := s.withTx(ctx, func(tx *sql.Tx) error {
					var n int
					if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM chats").Scan(&n); err != nil {
						return err
					}
					_, err := tx.ExecContext(ctx, "INSERT INTO chats (id, title, created_at, updated_at) VALUES (?, ?, 1, 1)",
						fmt.Sprintf("%d-%d", g, i), fmt.Sprint(n))
					return err
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if cs, _ := s.ListChats(ctx); len(cs) != 160 {
		t.Fatalf("%d chats, want 160", len(cs))
	}
}
