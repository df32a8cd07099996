package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"airlock/backend/chat"
)

func search(t testing.TB, s *Store, q string) []chat.SearchHit {
	t.Helper()
	hits, err := s.Search(context.Background(), q, 50)
	if err != nil {
		t.Fatalf("Search(%q): %v", q, err)
	}
	return hits
}

func hitIDs(hits []chat.SearchHit) string {
	var ids []string
	for _, h := range hits {
		id := h.MessageID
		if h.CallID != "" {
			id += "/" + h.CallID
		}
		ids = append(ids, id)
	}
	return strings.Join(ids, " ")
}

func TestSearchWords(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "Zoo trip")
	u := add(t, s, c.ID, chat.RoleUser, "Where do the zebras sleep?")
	a, _ := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Content: "Zebras sleep standing up.",
		Reasoning: "The user asks about équidés at night."})

	hits := search(t, s, "zebras")
	if len(hits) != 2 {
		t.Fatalf("zebras: %+v", hits)
	}
	h := hits[0]
	if h.ChatID != c.ID || h.ChatTitle != "Zoo trip" || h.Kind != chat.HitMessage || h.CallID != "" || h.CreatedAt == 0 {
		t.Fatalf("hit = %+v", h)
	}
	if !strings.Contains(h.Snippet, chat.MarkStart+"zebras"+chat.MarkEnd) && !strings.Contains(h.Snippet, chat.MarkStart+"Zebras"+chat.MarkEnd) {
		t.Fatalf("snippet %q has no marked match", h.Snippet)
	}
	// Case, diacritics, every word, prefix on the last word.
	for q, want := range map[string]string{
		"ZEBRAS":             u.ID + " " + a.ID,
		"equides":            a.ID,
		"zebras standing":    a.ID,
		"zebras stand":       a.ID, // the last word is a prefix
		"stand zebras":       "",   // only the last one
		"sleep standing zzz": "",
	} {
		got := hitIDs(search(t, s, q))
		if want == u.ID+" "+a.ID && got == a.ID+" "+u.ID {
			got = want // both, either order
		}
		if got != want {
			t.Errorf("Search(%q) = %q, want %q", q, got, want)
		}
	}
	// The role of the hit's message is reported.
	for _, h := range search(t, s, "equides") {
		if h.Role != chat.RoleAssistant {
			t.Errorf("role = %s", h.Role)
		}
	}
}

func TestSearchQueriesNeverError(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "x")
	add(t, s, c.ID, chat.RoleUser, `He said "AND" -- then OR NOT: col:val (x*y) ^start NEAR(a b) {body}: 100% _under_ c++ é 'quote' \back`)
	for _, q := range []string{
		`"`, `""`, `"""`, `*`, `**`, `a*`, `*a`, `AND`, `OR`, `NOT`, `AND OR NOT`, `-`, `--`, `-x`, `:`, `col:val`, `body:x`,
		`(`, `)`, `()`, `NEAR(a b)`, `NEAR/2`, `^`, `^start`, `foo"bar`, `'`, `\`, `%`, `_`, `{body}: x`, `{body aux}:said`,
		`+`, `c++`, `x AND`, `AND x`, `"unterminated`, "tab\there", "\x00", "\x02said\x03", "\u200b", "🙂", "🙂 said",
		strings.Repeat("long ", 500), strings.Repeat("(", 100), `said*`, `s`, `é`, "", "   ",
		`列`, `列表`, `"列表"`, `列表*`, `列表 AND 表`, `한`, `ｆｕｌｌ`,
	} {
		if _, err := s.Search(ctx, q, 10); err != nil {
			t.Errorf("Search(%q): %v", q, err)
		}
		if _, err := s.SearchChat(ctx, c.ID, q); err != nil {
			t.Errorf("SearchChat(%q): %v", q, err)
		}
	}
	// Operators are searched as words, not obeyed.
	if hits := search(t, s, "AND"); len(hits) != 1 {
		t.Errorf("AND as a word: %+v", hits)
	}
	if hits := search(t, s, "OR zebra"); len(hits) != 0 {
		t.Errorf("OR is not an operator: %+v", hits)
	}
	if hits := search(t, s, "c++"); len(hits) != 1 {
		t.Errorf("c++: %+v", hits)
	}
	if hits := search(t, s, "-- :: ** \"\""); len(hits) != 0 {
		t.Errorf("punctuation only should find nothing: %+v", hits)
	}
}

func TestSearchToolCalls(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "files")
	a := add(t, s, c.ID, chat.RoleAssistant, "Let me look.")
	calls, err := s.AddCalls(ctx, []chat.Call{{ChatID: c.ID, MessageID: a.ID, Name: "read_file",
		Arguments: json.RawMessage(`{"path":"notes/budget.txt"}`), State: chat.CallPending}})
	if err != nil {
		t.Fatal(err)
	}
	cl := calls[0]
	hits := search(t, s, "budget")
	if len(hits) != 1 || hits[0].Kind != chat.HitToolCall || hits[0].CallID != cl.ID || hits[0].MessageID != a.ID ||
		hits[0].Role != chat.RoleAssistant {
		t.Fatalf("argument hit = %+v", hits)
	}
	if hits := search(t, s, "read_file"); len(hits) != 1 {
		t.Fatalf("name hit = %+v", hits)
	}
	// The result and an edit are searchable once stored; the old text goes.
	cl.Edited = json.RawMessage(`{"path":"notes/forecast.txt"}`)
	cl.State, cl.Result, cl.ResultState = chat.CallDone, "Quarterly revenue: 42", chat.ToolSuccess
	if err := s.UpdateCall(ctx, cl); err != nil {
		t.Fatal(err)
	}
	for q, n := range map[string]int{"quarterly revenue": 1, "forecast": 1, "budget": 1} {
		if hits := search(t, s, q); len(hits) != n {
			t.Errorf("%q after update: %+v", q, hits)
		}
	}
	cl.Edited, cl.Result = nil, "nothing"
	s.UpdateCall(ctx, cl)
	if hits := search(t, s, "quarterly"); len(hits) != 0 {
		t.Errorf("old result still found: %+v", hits)
	}
	if hits := search(t, s, "forecast"); len(hits) != 0 {
		t.Errorf("old edit still found: %+v", hits)
	}
	// Deleting the message takes its calls out of the index.
	if err := s.DeleteMessage(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if hits := search(t, s, "budget"); len(hits) != 0 {
		t.Errorf("deleted call still found: %+v", hits)
	}
	assertIndexConsistent(t, s)
}

func TestSearchFollowsChanges(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "x")
	m, _ := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Status: chat.StatusStreaming})
	m.Content = "partial pelican"
	s.UpdateMessage(ctx, m)
	if hits := search(t, s, "pelican"); len(hits) != 0 {
		t.Fatalf("a streaming message is not indexed yet: %+v", hits)
	}
	m.Content, m.Status = "complete pelican answer", chat.StatusComplete
	s.UpdateMessage(ctx, m)
	if hits := search(t, s, "pelican"); len(hits) != 1 {
		t.Fatalf("completed message not found: %+v", hits)
	}
	m.Content = "rewritten flamingo answer"
	s.UpdateMessage(ctx, m)
	if hits := search(t, s, "pelican"); len(hits) != 0 {
		t.Fatalf("old text still found: %+v", hits)
	}
	if hits := search(t, s, "flamingo"); len(hits) != 1 {
		t.Fatalf("new text not found: %+v", hits)
	}
	// Unchanged text saved again (usage, status) costs no reindexing and
	// stays findable once.
	m.Usage.TotalTokens = 9
	s.UpdateMessage(ctx, m)
	if hits := search(t, s, "flamingo"); len(hits) != 1 {
		t.Fatalf("after a no-text update: %+v", hits)
	}
	// Deleting a message, then a whole chat.
	other := add(t, s, c.ID, chat.RoleUser, "flamingo question")
	if err := s.DeleteMessage(ctx, m.ID); err != nil {
		t.Fatal(err)
	}
	if hits := search(t, s, "flamingo"); hitIDs(hits) != other.ID {
		t.Fatalf("after delete: %+v", hits)
	}
	if err := s.DeleteChat(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	if hits := search(t, s, "flamingo"); len(hits) != 0 {
		t.Fatalf("after deleting the chat: %+v", hits)
	}
	assertIndexConsistent(t, s)
}

// assertIndexConsistent runs FTS5's integrity check (the index matches the
// content) and checks that no document outlives its row.
func assertIndexConsistent(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	for _, q := range []string{
		"INSERT INTO search_fts (search_fts, rank) VALUES ('integrity-check', 1)",
		"INSERT INTO search_cjk (search_cjk, rank) VALUES ('integrity-check', 1)",
	} {
		if _, err := s.db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var orphans int
	s.db.QueryRowContext(ctx, `SELECT count(*) FROM search_docs d WHERE
		(d.kind = 'message' AND NOT EXISTS (SELECT 1 FROM messages WHERE id = d.ref)) OR
		(d.kind = 'tool_call' AND NOT EXISTS (SELECT 1 FROM tool_calls WHERE id = d.ref))`).Scan(&orphans)
	if orphans != 0 {
		t.Fatalf("%d search documents outlive their rows", orphans)
	}
}

func TestSearchCJK(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "多语言")
	zh := add(t, s, c.ID, chat.RoleUser, "我想搜索以前的聊天记录，怎么办？")
	ja := add(t, s, c.ID, chat.RoleAssistant, "東京タワーは333メートルです。")
	ko := add(t, s, c.ID, chat.RoleUser, "안녕하세요 반갑습니다")
	mixed := add(t, s, c.ID, chat.RoleAssistant, "Python 的列表推导式 (list comprehension) 很好用")
	add(t, s, c.ID, chat.RoleUser, "nothing asian here: search history")

	for q, want := range map[string]string{
		"搜索":         zh.ID,    // two characters: below the trigram index
		"聊天记录":       zh.ID,    // trigram
		"搜索 记录":      zh.ID,    // every term
		"搜索 タワー":     "",       // not in one message
		"タワー":        ja.ID,    // katakana
		"東京":         ja.ID,    // kanji, short
		"안녕":         ko.ID,    // hangul, short
		"반갑습니다":      ko.ID,    // hangul, trigram
		"列表":         mixed.ID, // Chinese in a mixed message
		"python 列表":  mixed.ID, // with a Latin word (case-insensitive)
		"LIST 推导式":   mixed.ID,
		"推导式 java":   "",
		"以前的聊天记录怎么办": "", // the comma is in the text: no match
	} {
		if got := hitIDs(search(t, s, q)); got != want {
			t.Errorf("Search(%q) = %q, want %q", q, got, want)
		}
	}
	hits := search(t, s, "搜索")
	if len(hits) != 1 || !strings.Contains(hits[0].Snippet, chat.MarkStart+"搜索"+chat.MarkEnd) {
		t.Fatalf("CJK snippet = %+v", hits)
	}
	hits = search(t, s, "python 列表")
	if len(hits) != 1 || !strings.Contains(hits[0].Snippet, chat.MarkStart+"Python"+chat.MarkEnd) ||
		!strings.Contains(hits[0].Snippet, chat.MarkStart+"列表"+chat.MarkEnd) {
		t.Fatalf("mixed snippet = %+v", hits)
	}
	// Within one chat too, and deletions.
	if hits, _ := s.SearchChat(ctx, c.ID, "搜索"); len(hits) != 1 {
		t.Fatalf("SearchChat CJK = %+v", hits)
	}
	s.DeleteMessage(ctx, zh.ID)
	if hits := search(t, s, "聊天记录"); len(hits) != 0 {
		t.Fatalf("deleted CJK message still found: %+v", hits)
	}
	assertIndexConsistent(t, s)
}

func TestSearchSnippetMarkersAreSafe(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "x")
	add(t, s, c.ID, chat.RoleUser, "fake \x02marker\x03 and a <mark>tag</mark> near the word walrus")
	add(t, s, c.ID, chat.RoleUser, "中文 \x02假\x03 海象")
	for _, q := range []string{"walrus", "海象"} {
		hits := search(t, s, q)
		if len(hits) != 1 {
			t.Fatalf("%s: %+v", q, hits)
		}
		sn := hits[0].Snippet
		if strings.Count(sn, chat.MarkStart) != 1 || strings.Count(sn, chat.MarkEnd) != 1 ||
			!strings.Contains(sn, chat.MarkStart+q+chat.MarkEnd) {
			t.Errorf("snippet %q: markers in the text must not count as highlights", sn)
		}
	}
	// HTML in the text is returned as text, for the UI to escape.
	if hits := search(t, s, "walrus"); !strings.Contains(hits[0].Snippet, "<mark>tag</mark>") {
		t.Errorf("snippet = %q", hits[0].Snippet)
	}
}

func TestSearchRankingAndLimit(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "x")
	weak := add(t, s, c.ID, chat.RoleUser, "an otter appears once in this rather long message about many other animals and things")
	strong := add(t, s, c.ID, chat.RoleUser, "otter otter otter")
	if got := hitIDs(search(t, s, "otter")); got != strong.ID+" "+weak.ID {
		t.Fatalf("order = %q, want the stronger match first", got)
	}
	for i := range 30 {
		add(t, s, c.ID, chat.RoleUser, fmt.Sprintf("otter number %d", i))
	}
	if hits, _ := s.Search(ctx, "otter", 5); len(hits) != 5 {
		t.Fatalf("limit 5 gave %d", len(hits))
	}
	if hits, _ := s.Search(ctx, "otter", 0); len(hits) != 32 {
		t.Fatalf("default limit gave %d", len(hits))
	}
}

func TestSearchChatFollowsTheActivePath(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "x")
	other, _ := s.CreateChat(ctx, "other")
	add(t, s, other.ID, chat.RoleUser, "heron elsewhere")
	u := add(t, s, c.ID, chat.RoleUser, "tell me about the heron")
	old := add(t, s, c.ID, chat.RoleAssistant, "old heron answer")
	s.SetLeaf(ctx, c.ID, u.ID)
	a := add(t, s, c.ID, chat.RoleAssistant, "a heron is a bird; let me check")
	calls, _ := s.AddCalls(ctx, []chat.Call{
		{ChatID: c.ID, MessageID: a.ID, Index: 1, Name: "lookup", Arguments: json.RawMessage(`{"q":"heron nests"}`), State: chat.CallPending},
		{ChatID: c.ID, MessageID: a.ID, Index: 0, Name: "lookup", Arguments: json.RawMessage(`{"q":"heron wings"}`), State: chat.CallPending},
	})
	add(t, s, c.ID, chat.RoleUser, "thanks, heron fan here")

	hits, err := s.SearchChat(ctx, c.ID, "heron")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{u.ID, a.ID, a.ID + "/" + calls[1].ID, a.ID + "/" + calls[0].ID}
	got := strings.Split(hitIDs(hits), " ")
	if len(got) != 5 || strings.Join(got[:4], " ") != strings.Join(want, " ") {
		t.Fatalf("SearchChat = %q, want %q then the last message (conversation order, calls by index)", got, want)
	}
	for _, h := range hits {
		if h.MessageID == old.ID || h.ChatID != c.ID {
			t.Fatalf("hit off the active path or chat: %+v", h)
		}
	}
	// Global search finds every version.
	if hits := search(t, s, "old heron"); hitIDs(hits) != old.ID {
		t.Fatalf("global search misses the other version: %+v", hits)
	}
	_, err = s.SearchChat(ctx, "missing", "heron")
	wantErr(t, err, chat.ErrNotFound)
}

// The index survives a VACUUM, which may renumber implicit rowids.
func TestSearchSurvivesVacuum(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "x")
	var keep chat.Message
	for i := range 50 {
		m := add(t, s, c.ID, chat.RoleUser, fmt.Sprintf("message %d", i))
		if i == 40 {
			keep = m
		}
	}
	for i := range 30 {
		add(t, s, c.ID, chat.RoleUser, fmt.Sprintf("filler %d", i))
	}
	s.db.ExecContext(ctx, "DELETE FROM messages WHERE content LIKE 'message 1%'")
	if _, err := s.db.ExecContext(ctx, "VACUUM"); err != nil {
		t.Fatal(err)
	}
	m, _ := s.GetMessage(ctx, keep.ID)
	m.Content = "renamed capybara"
	s.UpdateMessage(ctx, m)
	if hits := search(t, s, "capybara"); hitIDs(hits) != keep.ID {
		t.Fatalf("after VACUUM: %+v", hits)
	}
	assertIndexConsistent(t, s)
}

// A query matching more than rankLimit documents lists the newest first
// instead of ranking them all.
func TestSearchTooManyMatchesNewestFirst(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "x")
	strong := add(t, s, c.ID, chat.RoleUser, "lynx lynx lynx")
	add(t, s, c.ID, chat.RoleUser, "a lynx among many other words in a long sentence here")
	newest := add(t, s, c.ID, chat.RoleUser, "one more lynx, said in passing, with quite a few other words")
	if got := search(t, s, "lynx"); got[0].MessageID != strong.ID {
		t.Fatalf("ranked: %q", hitIDs(got))
	}
	defer func(n int) { rankLimit = n }(rankLimit)
	rankLimit = 2
	got := search(t, s, "lynx")
	if len(got) != 3 || got[0].MessageID != newest.ID || got[2].MessageID != strong.ID {
		t.Fatalf("over the limit: %q, want newest first", hitIDs(got))
	}
	if hits, _ := s.Search(ctx, "lynx", 1); len(hits) != 1 || hits[0].MessageID != newest.ID {
		t.Fatalf("limit 1 over the rank limit: %+v", hits)
	}
}

// Imports and duplicates index in bulk (search_pause): what they add is
// found, and the index stays consistent with the rows.
func TestBulkInsertsAreIndexed(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	before, _ := s.CreateChat(ctx, "before")
	add(t, s, before.ID, chat.RoleUser, "an ocelot before the import")
	d := ChatData{Chat: chat.Chat{ID: "imp", Title: "imported", CreatedAt: 1, UpdatedAt: 1, LeafID: "i2", ChatOptions: chat.DefaultChatOptions()},
		Messages: []chat.Message{
			{ID: "i1", ChatID: "imp", Role: chat.RoleUser, Kind: chat.KindText, Status: chat.StatusComplete, Content: "imported ocelot question 猫科动物", CreatedAt: 1, UpdatedAt: 1},
			{ID: "i2", ChatID: "imp", ParentID: "i1", Role: chat.RoleAssistant, Kind: chat.KindText, Status: chat.StatusStreaming, Content: "imported answer", CreatedAt: 2, UpdatedAt: 2},
		},
		Calls: []chat.Call{{ID: "ic", ChatID: "imp", MessageID: "i2", Name: "lookup", Arguments: json.RawMessage(`{"animal":"margay"}`), State: chat.CallRunning}},
	}
	if _, err := s.ImportChats(ctx, []ChatData{d}); err != nil {
		t.Fatal(err)
	}
	if got := search(t, s, "ocelot"); len(got) != 2 {
		t.Fatalf("ocelot: %q", hitIDs(got))
	}
	if got := hitIDs(search(t, s, "margay")); got != "i2/ic" {
		t.Fatalf("imported call: %q", got)
	}
	if got := hitIDs(search(t, s, "猫科")); got != "i1" {
		t.Fatalf("imported CJK: %q", got)
	}
	// In flight when exported: stored settled, and indexed.
	if m, _ := s.GetMessage(ctx, "i2"); m.Status != chat.StatusInterrupted {
		t.Fatalf("imported streaming message is %s", m.Status)
	}
	if c, _ := s.GetCall(ctx, "ic"); c.State != chat.CallInterrupted {
		t.Fatalf("imported running call is %s", c.State)
	}
	if got := hitIDs(search(t, s, "imported answer")); got != "i2" {
		t.Fatalf("interrupted import: %q", got)
	}
	dup, err := s.DuplicateChat(ctx, "imp")
	if err != nil {
		t.Fatal(err)
	}
	if hits, _ := s.SearchChat(ctx, dup.ID, "margay"); len(hits) != 1 {
		t.Fatalf("duplicate's call not found: %+v", hits)
	}
	// Later edits of bulk-inserted rows reindex them correctly.
	m, _ := s.GetMessage(ctx, "i1")
	m.Content = "now about a serval"
	if err := s.UpdateMessage(ctx, m); err != nil {
		t.Fatal(err)
	}
	if got := search(t, s, "ocelot"); len(got) != 2 { // the original's "before" and the duplicate
		t.Fatalf("after edit: %q", hitIDs(got))
	}
	var paused int
	s.db.QueryRowContext(ctx, "SELECT count(*) FROM search_pause").Scan(&paused)
	if paused != 0 {
		t.Fatal("indexing left paused")
	}
	assertIndexConsistent(t, s)
	// A failed import leaves indexing on too.
	bad := d
	bad.Chat.ID, bad.Messages = "bad", []chat.Message{{ID: "x1", ChatID: "bad", Role: "robot", Kind: chat.KindText, Status: chat.StatusComplete}}
	bad.Calls = nil
	if _, err := s.ImportChats(ctx, []ChatData{bad}); err == nil {
		t.Fatal("imported a robot")
	}
	add(t, s, before.ID, chat.RoleUser, "a caracal after the failure")
	if got := search(t, s, "caracal"); len(got) != 1 {
		t.Fatalf("indexing after a failed import: %q", hitIDs(got))
	}
	assertIndexConsistent(t, s)
}

// A results message is found by what the tools returned, and shown as that:
// the tools' names and their output without the protocol's markup (issue
// 30, item 12). Before, the snippet was raw {"tool_call_result":…} JSON.
func TestSearchResultsMessageIsReadable(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "maths")
	a := add(t, s, c.ID, chat.RoleAssistant, "Let me work it out.")
	if _, err := s.AddCalls(ctx, []chat.Call{{ChatID: c.ID, MessageID: a.ID, Name: "calculate",
		Arguments: json.RawMessage(`{"expression":"17^3"}`), State: chat.CallPending}}); err != nil {
		t.Fatal(err)
	}
	body := "```json\n{\"tool_call_result\":{\"toolCallId\":\"call_1\",\"name\":\"calculate\",\"status\":\"success\",\"result\":\"seventeen cubed is 4913\"}}\n```"
	r, err := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleUser, Kind: chat.KindToolResults, Content: body, Status: chat.StatusComplete})
	if err != nil {
		t.Fatal(err)
	}
	hits := search(t, s, "cubed")
	if len(hits) != 1 || hits[0].MessageID != r.ID {
		t.Fatalf("hits: %+v", hits)
	}
	h := hits[0]
	plain := strings.NewReplacer(chat.MarkStart, "", chat.MarkEnd, "").Replace(h.Snippet)
	if h.Tools != "calculate" || strings.ContainsAny(plain, "{}\"") || strings.Contains(plain, "tool_call_result") ||
		!strings.Contains(plain, "seventeen cubed is 4913") || !strings.Contains(h.Snippet, chat.MarkStart+"cubed"+chat.MarkEnd) {
		t.Fatalf("tools %q, snippet %q", h.Tools, h.Snippet)
	}
	if hits := search(t, s, "work"); len(hits) != 1 || hits[0].Tools != "" {
		t.Fatalf("a plain message has no tools: %+v", hits)
	}
}
