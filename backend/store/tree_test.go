package store

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"airlock/backend/chat"
)

// add appends a message to the chat's active path.
func add(t testing.TB, s *Store, chatID string, role chat.Role, content string) chat.Message {
	t.Helper()
	m, err := s.AddMessage(context.Background(), chat.Message{ChatID: chatID, Role: role, Content: content})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// contents lists the active path as "content(version/versions)". It also
// checks that ListMessages (versions counted in Go), ListMessagesPage and
// GetMessage (counted in SQL) agree on every message.
func contents(t testing.TB, s *Store, chatID string) string {
	t.Helper()
	ctx := context.Background()
	msgs, err := s.ListMessages(ctx, chatID)
	if err != nil {
		t.Fatal(err)
	}
	page, err := s.ListMessagesPage(ctx, chatID, "", len(msgs)+1)
	if err != nil || len(page) != len(msgs) {
		t.Fatalf("ListMessagesPage: %d messages, %v; ListMessages has %d", len(page), err, len(msgs))
	}
	for i, m := range msgs {
		got, err := s.GetMessage(ctx, m.ID)
		if err != nil || !reflect.DeepEqual(got, m) || !reflect.DeepEqual(page[i], m) {
			t.Fatalf("message %d:\n list %+v\n page %+v\n  get %+v (%v)", i, m, page[i], got, err)
		}
	}
	return describe(msgs)
}

func describe(msgs []chat.Message) string {
	var parts []string
	for _, m := range msgs {
		p := m.Content
		if m.Versions > 1 {
			p += fmt.Sprintf("(%d/%d)", m.Version, m.Versions)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " ")
}

func TestAddMessageLinksThePath(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "x")
	u := add(t, s, c.ID, chat.RoleUser, "q")
	a := add(t, s, c.ID, chat.RoleAssistant, "a")
	if u.ParentID != "" || a.ParentID != u.ID || u.Versions != 1 || u.Version != 1 {
		t.Fatalf("parents: u=%+v a=%+v", u, a)
	}
	if got, _ := s.GetChat(ctx, c.ID); got.LeafID != a.ID {
		t.Fatalf("leaf = %s, want %s", got.LeafID, a.ID)
	}
	// An explicit parent must be a message of the same chat.
	other, _ := s.CreateChat(ctx, "other")
	o := add(t, s, other.ID, chat.RoleUser, "elsewhere")
	_, err := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleUser, ParentID: o.ID})
	wantErr(t, err, chat.ErrInvalid)
	_, err = s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleUser, ParentID: "missing"})
	wantErr(t, err, chat.ErrNotFound)
	// An explicit parent branches: the new message becomes the leaf.
	b, err := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Content: "a2", ParentID: u.ID})
	if err != nil {
		t.Fatal(err)
	}
	if b.Versions != 2 || b.Version != 2 {
		t.Fatalf("branch = %d/%d, want 2/2", b.Version, b.Versions)
	}
	if got := contents(t, s, c.ID); got != "q a2(2/2)" {
		t.Fatalf("path = %q", got)
	}
}

func TestVersions(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "x")
	u1 := add(t, s, c.ID, chat.RoleUser, "u1")
	a1 := add(t, s, c.ID, chat.RoleAssistant, "a1")
	add(t, s, c.ID, chat.RoleUser, "u2")
	a2 := add(t, s, c.ID, chat.RoleAssistant, "a2")
	calls, err := s.AddCalls(ctx, []chat.Call{{ChatID: c.ID, MessageID: a2.ID, Name: "calc", State: chat.CallPending}})
	if err != nil {
		t.Fatal(err)
	}

	// Regenerate a2: rewind to its parent, add the new answer.
	tick()
	if _, err := s.SetLeaf(ctx, c.ID, a2.ParentID); err != nil {
		t.Fatal(err)
	}
	a2b := add(t, s, c.ID, chat.RoleAssistant, "a2b")
	if a2b.ParentID != a2.ParentID || a2b.Versions != 2 || a2b.Version != 2 {
		t.Fatalf("regenerated = %+v", a2b)
	}
	if got := contents(t, s, c.ID); got != "u1 a1 u2 a2b(2/2)" {
		t.Fatalf("after regenerate: %q", got)
	}

	// Edit u1 and resend: a new user version, then its answer.
	tick()
	u1b, err := s.AddVersion(ctx, u1.ID, chat.Message{Content: "u1b"})
	if err != nil {
		t.Fatal(err)
	}
	if u1b.Role != chat.RoleUser || u1b.ParentID != "" || u1b.Versions != 2 || u1b.Version != 2 || u1b.Kind != chat.KindText {
		t.Fatalf("AddVersion = %+v", u1b)
	}
	add(t, s, c.ID, chat.RoleAssistant, "a1b")
	if got := contents(t, s, c.ID); got != "u1b(2/2) a1b" {
		t.Fatalf("after edit: %q", got)
	}
	vs, err := s.ListVersions(ctx, u1b.ID)
	if err != nil || len(vs) != 2 || vs[0].ID != u1.ID || vs[1].ID != u1b.ID || vs[0].Version != 1 {
		t.Fatalf("ListVersions = %v, %v", describe(vs), err)
	}

	// Switch back to u1: the path follows the newest child at each step,
	// so it ends with the regenerated a2b.
	sw, err := s.SwitchVersion(ctx, u1.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sw.LeafID != a2b.ID {
		t.Fatalf("leaf after switch = %s, want a2b", sw.LeafID)
	}
	if got := contents(t, s, c.ID); got != "u1(1/2) a1 u2 a2b(2/2)" {
		t.Fatalf("after switch: %q", got)
	}
	// Then the older answer a2: its call belongs to it, and shows again.
	if _, err := s.SwitchVersion(ctx, a2.ID); err != nil {
		t.Fatal(err)
	}
	if got := contents(t, s, c.ID); got != "u1(1/2) a1 u2 a2(1/2)" {
		t.Fatalf("after switching to a2: %q", got)
	}
	if mc, _ := s.MessageCalls(ctx, a2.ID); len(mc) != 1 || mc[0].ID != calls[0].ID {
		t.Fatalf("a2's calls = %+v", mc)
	}
	// Switching to a message already on the path changes nothing.
	if sw, err := s.SwitchVersion(ctx, a1.ID); err != nil || sw.LeafID != a2.ID {
		t.Fatalf("switch to a1 on the path = %+v, %v", sw, err)
	}

	// Errors.
	_, err = s.AddVersion(ctx, a1.ID, chat.Message{Role: chat.RoleUser, Content: "x"})
	wantErr(t, err, chat.ErrInvalid)
	_, err = s.AddVersion(ctx, "missing", chat.Message{Content: "x"})
	wantErr(t, err, chat.ErrNotFound)
	_, err = s.SwitchVersion(ctx, "missing")
	wantErr(t, err, chat.ErrNotFound)
	_, err = s.SetLeaf(ctx, c.ID, "missing")
	wantErr(t, err, chat.ErrNotFound)
	_, err = s.ListVersions(ctx, "missing")
	wantErr(t, err, chat.ErrNotFound)
	if c2, err := s.SetLeaf(ctx, c.ID, ""); err != nil || c2.LeafID != "" {
		t.Fatalf("SetLeaf empty = %+v, %v", c2, err)
	}
	if got := contents(t, s, c.ID); got != "" {
		t.Fatalf("empty path lists %q", got)
	}
}

func TestDeleteMessage(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "x")
	u := add(t, s, c.ID, chat.RoleUser, "u")
	a := add(t, s, c.ID, chat.RoleAssistant, "a")

	// Deleting the leaf (Retry): the path ends at its parent and the next
	// answer follows the user message.
	if err := s.DeleteMessage(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetChat(ctx, c.ID); got.LeafID != u.ID {
		t.Fatalf("leaf = %s, want the user message", got.LeafID)
	}
	a2 := add(t, s, c.ID, chat.RoleAssistant, "a2")
	if a2.ParentID != u.ID || a2.Versions != 1 {
		t.Fatalf("retried answer = %+v", a2)
	}

	// Deleting a message in the middle closes the gap, on every branch.
	tick()
	if _, err := s.SetLeaf(ctx, c.ID, u.ID); err != nil {
		t.Fatal(err)
	}
	a3 := add(t, s, c.ID, chat.RoleAssistant, "a3")
	calls, _ := s.AddCalls(ctx, []chat.Call{{ChatID: c.ID, MessageID: u.ID, Name: "x", State: chat.CallPending}})
	if err := s.DeleteMessage(ctx, u.ID); err != nil {
		t.Fatal(err)
	}
	if got := contents(t, s, c.ID); got != "a3(2/2)" {
		t.Fatalf("after deleting the first message: %q", got)
	}
	if got, _ := s.GetMessage(ctx, a2.ID); got.ParentID != "" {
		t.Fatalf("other branch not re-linked: %+v", got)
	}
	_, err := s.GetCall(ctx, calls[0].ID)
	wantErr(t, err, chat.ErrNotFound)
	if _, err := s.SwitchVersion(ctx, a2.ID); err != nil {
		t.Fatal(err)
	}
	if got := contents(t, s, c.ID); got != "a2(1/2)" {
		t.Fatalf("other branch: %q", got)
	}
	_ = a3
}

func TestListMessagesPage(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "x")
	var ids []string
	for i := range 25 {
		ids = append(ids, add(t, s, c.ID, chat.RoleUser, fmt.Sprint(i)).ID)
	}
	page, err := s.ListMessagesPage(ctx, c.ID, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if got := describe(page); got != "15 16 17 18 19 20 21 22 23 24" {
		t.Fatalf("last page = %q", got)
	}
	var all []chat.Message
	for before := ""; ; {
		page, err := s.ListMessagesPage(ctx, c.ID, before, 10)
		if err != nil {
			t.Fatal(err)
		}
		all = append(page, all...)
		if len(page) == 0 || page[0].ParentID == "" {
			break
		}
		before = page[0].ID
	}
	full, _ := s.ListMessages(ctx, c.ID)
	if describe(all) != describe(full) || len(all) != 25 {
		t.Fatalf("pages = %q, want %q", describe(all), describe(full))
	}
	if page, _ := s.ListMessagesPage(ctx, c.ID, ids[3], 0); describe(page) != "0 1 2" {
		t.Fatalf("before the 4th = %q", describe(page))
	}
	// The calls of a page, in the page's order.
	s.AddCalls(ctx, []chat.Call{
		{ChatID: c.ID, MessageID: ids[20], Index: 1, Name: "b", State: chat.CallPending},
		{ChatID: c.ID, MessageID: ids[20], Index: 0, Name: "a", State: chat.CallPending},
		{ChatID: c.ID, MessageID: ids[2], Index: 0, Name: "off-page", State: chat.CallPending},
		{ChatID: c.ID, MessageID: ids[18], Index: 0, Name: "first", State: chat.CallPending},
	})
	page, _ = s.ListMessagesPage(ctx, c.ID, "", 10)
	var pageIDs []string
	for _, m := range page {
		pageIDs = append(pageIDs, m.ID)
	}
	calls, err := s.CallsOfMessages(ctx, pageIDs)
	if err != nil || len(calls) != 3 || calls[0].Name != "first" || calls[1].Name != "a" || calls[2].Name != "b" {
		t.Fatalf("CallsOfMessages = %+v, %v", calls, err)
	}
	if calls, err := s.CallsOfMessages(ctx, nil); err != nil || calls == nil || len(calls) != 0 {
		t.Fatalf("CallsOfMessages(nil) = %#v, %v", calls, err)
	}
	other, _ := s.CreateChat(ctx, "y")
	_, err = s.ListMessagesPage(ctx, other.ID, ids[3], 10)
	wantErr(t, err, chat.ErrInvalid)
	_, err = s.ListMessagesPage(ctx, c.ID, "missing", 10)
	wantErr(t, err, chat.ErrNotFound)
	_, err = s.ListMessagesPage(ctx, "missing", "", 10)
	wantErr(t, err, chat.ErrNotFound)
}

func TestPinnedChatsComeFirst(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	var ids []string
	for _, title := range []string{"a", "b", "c"} {
		c, _ := s.CreateChat(ctx, title)
		ids = append(ids, c.ID)
		tick()
	}
	p, err := s.SetPinned(ctx, ids[0], true)
	if err != nil || !p.Pinned {
		t.Fatalf("SetPinned = %+v, %v", p, err)
	}
	order := func() string {
		cs, _ := s.ListChats(ctx)
		var b strings.Builder
		for _, c := range cs {
			b.WriteString(c.Title)
		}
		return b.String()
	}
	if got := order(); got != "acb" {
		t.Fatalf("order = %s, want acb (pinned a first)", got)
	}
	add(t, s, ids[1], chat.RoleUser, "activity")
	if got := order(); got != "abc" {
		t.Fatalf("after activity in b: %s, want abc", got)
	}
	s.SetPinned(ctx, ids[2], true)
	if got := order(); got != "cab" {
		t.Fatalf("two pinned: %s, want cab (pinned by activity, then the rest)", got)
	}
	if p, _ := s.SetPinned(ctx, ids[0], false); p.Pinned || p.UpdatedAt != p.CreatedAt {
		t.Fatalf("unpin = %+v (pinning is not activity)", p)
	}
	if got := order(); got != "cba" {
		t.Fatalf("after unpinning a: %s, want cba", got)
	}
	_, err = s.SetPinned(ctx, "missing", true)
	wantErr(t, err, chat.ErrNotFound)
}

func TestDuplicateChat(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "Trip")
	c, _ = s.SetChatOptions(ctx, c.ID, chat.ChatOptions{Paradigm: "xml", WorkspaceKind: "folder", WorkspaceDir: "/tmp/w"})
	s.SetPinned(ctx, c.ID, true)
	u := add(t, s, c.ID, chat.RoleUser, "q")
	old := add(t, s, c.ID, chat.RoleAssistant, "old answer")
	s.SetLeaf(ctx, c.ID, u.ID)
	a, _ := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Content: "new answer", Model: "m1",
		Usage: chat.Usage{PromptTokens: 1, CompletionTokens: 2, TotalTokens: 3}})
	calls, _ := s.AddCalls(ctx, []chat.Call{
		{ChatID: c.ID, MessageID: a.ID, ModelCallID: "call_1", Name: "calc", Arguments: []byte(`{"x":1}`), State: chat.CallDone,
			DecidedBy: chat.ByUser, DecidedAt: 123, Result: "2", ResultState: chat.ToolSuccess},
	})
	s.AddCalls(ctx, []chat.Call{{ChatID: c.ID, MessageID: old.ID, Name: "other", State: chat.CallPending}})
	add(t, s, c.ID, chat.RoleUser, "follow-up")

	d, err := s.DuplicateChat(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d.ID == c.ID || d.Title != "Trip (copy)" || d.Pinned || d.Paradigm != "xml" || d.WorkspaceDir != "/tmp/w" {
		t.Fatalf("copy = %+v", d)
	}
	if got := contents(t, s, d.ID); got != "q new answer follow-up" {
		t.Fatalf("copied path = %q (only the active path, one version each)", got)
	}
	msgs, _ := s.ListMessages(ctx, d.ID)
	for _, m := range msgs {
		if m.ID == u.ID || m.ID == a.ID || m.ChatID != d.ID {
			t.Fatalf("copied message keeps an old id: %+v", m)
		}
	}
	if msgs[1].Model != "m1" || msgs[1].Usage.TotalTokens != 3 || msgs[1].ParentID != msgs[0].ID {
		t.Fatalf("copied answer = %+v", msgs[1])
	}
	dc, _ := s.ListCalls(ctx, d.ID)
	if len(dc) != 1 || dc[0].ID == calls[0].ID || dc[0].MessageID != msgs[1].ID || dc[0].ModelCallID != "call_1" ||
		dc[0].DecidedAt != 123 || dc[0].Result != "2" || string(dc[0].Arguments) != `{"x":1}` || dc[0].State != chat.CallDone {
		t.Fatalf("copied calls = %+v", dc)
	}
	// The original is untouched; the copy is the most recent chat after
	// the pinned original.
	if got := contents(t, s, c.ID); got != "q new answer(2/2) follow-up" {
		t.Fatalf("original = %q", got)
	}
	cs, _ := s.ListChats(ctx)
	if len(cs) != 2 || cs[0].ID != c.ID || cs[1].ID != d.ID {
		t.Fatalf("chats = %+v", cs)
	}
	_, err = s.DuplicateChat(ctx, "missing")
	wantErr(t, err, chat.ErrNotFound)
}

// A database with data at version 3 gains parents, leaves and the search
// index when 0004 runs.
func TestMigration0004Backfill(t *testing.T) {
	ctx := context.Background()
	ms, err := loadMigrations(migrationFS)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "v3.db")
	db := openRaw(t, path)
	if err := migrate(ctx, db, ms[:3]); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO chats (id, title, created_at, updated_at) VALUES ('c1', 'one', 1, 9), ('c2', 'two', 1, 5), ('c3', 'empty', 1, 1)`,
		// Inserted out of order; ties on created_at break by id.
		`INSERT INTO messages (id, chat_id, role, content, status, created_at, updated_at) VALUES
			('m3', 'c1', 'user', 'third', 'complete', 30, 30),
			('m1', 'c1', 'user', 'first question about zebras', 'complete', 10, 10),
			('m2b', 'c1', 'assistant', 'second b', 'complete', 20, 20),
			('m2a', 'c1', 'assistant', 'second a', 'complete', 20, 20),
			('n1', 'c2', 'user', 'other chat', 'complete', 5, 5),
			('s1', 'c2', 'assistant', 'still streaming zebras', 'streaming', 6, 6)`,
		`INSERT INTO tool_calls (id, model_call_id, chat_id, message_id, idx, name, arguments, state, result, created_at, updated_at)
			VALUES ('t1', 'x', 'c1', 'm2a', 0, 'read_file', '{"path":"zebra.txt"}', 'done', 'stripes', 21, 21)`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	parents := map[string]string{}
	rows, _ := s.db.QueryContext(ctx, "SELECT id, parent_id FROM messages")
	for rows.Next() {
		var id, p string
		rows.Scan(&id, &p)
		parents[id] = p
	}
	rows.Close()
	want := map[string]string{"m1": "", "m2a": "m1", "m2b": "m2a", "m3": "m2b", "n1": "", "s1": "n1"}
	for id, p := range want {
		if parents[id] != p {
			t.Errorf("parent of %s = %q, want %q", id, parents[id], p)
		}
	}
	for id, leaf := range map[string]string{"c1": "m3", "c2": "s1", "c3": ""} {
		if c, _ := s.GetChat(ctx, id); c.LeafID != leaf || c.Pinned {
			t.Errorf("chat %s: leaf %q pinned %v, want leaf %q", id, c.LeafID, c.Pinned, leaf)
		}
	}
	if got := contents(t, s, "c1"); got != "first question about zebras second a second b third" {
		t.Fatalf("c1 path = %q", got)
	}
	hits, err := s.Search(ctx, "zebras", 10)
	if err != nil || len(hits) != 1 || hits[0].MessageID != "m1" {
		t.Fatalf("search after migration = %+v, %v (the streaming message is not indexed)", hits, err)
	}
	if hits, _ := s.Search(ctx, "stripes", 10); len(hits) != 1 || hits[0].CallID != "t1" || hits[0].MessageID != "m2a" {
		t.Fatalf("call search after migration = %+v", hits)
	}
	if _, err := s.InterruptStreaming(ctx); err != nil {
		t.Fatal(err)
	}
	if hits, _ := s.Search(ctx, "zebras", 10); len(hits) != 2 {
		t.Fatalf("interrupted message not indexed: %+v", hits)
	}
}
