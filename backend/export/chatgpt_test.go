package export

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"airlock/backend/chat"
)

func readChatGPTFixture(t *testing.T) Bundle {
	t.Helper()
	f, err := os.Open("testdata/chatgpt_conversations.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, src, err := Read(f)
	if err != nil || src != SourceChatGPT {
		t.Fatalf("Read = %s, %v", src, err)
	}
	return b
}

func TestChatGPTConversion(t *testing.T) {
	b := readChatGPTFixture(t)
	if len(b.Chats) != 2 {
		t.Fatalf("%d chats", len(b.Chats))
	}
	c := b.Chats[0]
	if c.ID != "chatgpt-6630a1b2-0000-4000-8000-000000000001" || c.Title != "Python list tricks" ||
		c.CreatedAt != 1714550400000 || c.UpdatedAt != 1714550720250 {
		t.Fatalf("chat = %+v", c)
	}
	// The hidden system message, the thoughts and the recap are not
	// messages; everything else is, every branch included.
	if len(c.Messages) != 9 {
		t.Fatalf("%d messages, want 9", len(c.Messages))
	}
	var path []string
	for _, m := range c.ActivePath() {
		path = append(path, fmt.Sprintf("%s(%d/%d)", strings.TrimPrefix(m.ID, "chatgpt-"), m.Version, m.Versions))
	}
	if got := strings.Join(path, " "); got != "u-1(1/1) a-1b(2/2) u-2b(2/2) a-4(1/1)" {
		t.Fatalf("active path = %s (current_node decides; edits and regenerations are versions)", got)
	}
	by := map[string]Message{}
	for _, m := range c.Messages {
		by[strings.TrimPrefix(m.ID, "chatgpt-")] = m
	}
	if m := by["u-1"]; m.ParentID != "" || m.Role != "user" || m.CreatedAt != 1714550400500 {
		t.Errorf("u-1 = %+v (the hidden system message's child is a first message)", m)
	}
	if m := by["a-1"]; m.Model != "gpt-4o" || m.CreatedAt != 1714550410500 || m.ParentID != "chatgpt-u-1" {
		t.Errorf("a-1 = %+v", m)
	}
	if m := by["a-4"]; m.ParentID != "chatgpt-u-2b" || m.Reasoning != "**Picking numbers**\n\nUse 1 to 6 in two lists." ||
		!strings.Contains(m.Content, "[image]") || m.Model != "o3" {
		t.Errorf("a-4 = %+v (thoughts become its reasoning, the image a placeholder)", m)
	}
	if m := by["a-2"]; !strings.HasPrefix(m.Content, "```python\nimport itertools") {
		t.Errorf("code message = %q", m.Content)
	}
	if m := by["t-2"]; m.Role != "user" || m.Kind != "tool_results" || !strings.Contains(m.Content, "Output of python") || !strings.Contains(m.Content, "[1, 2, 3]") {
		t.Errorf("tool message = %+v", m)
	}

	// The older export: no conversation_id, no title, no current_node, a
	// message without a time.
	c2 := b.Chats[1]
	if c2.ID != "chatgpt-legacy-conv-2" || c2.Title != "Untitled chat" || c2.LeafID != "chatgpt-a" {
		t.Fatalf("second chat = %+v", c2)
	}
	if a := c2.Messages[1]; a.CreatedAt != 1714636800001 || a.Content != "Oui, merci !" {
		t.Fatalf("untimed answer = %+v (its parent's time, plus 1 ms)", a)
	}
}

func TestChatGPTImport(t *testing.T) {
	ctx := context.Background()
	b := readChatGPTFixture(t)
	s := newStore(t)
	rep, err := Import(ctx, s, b)
	if err != nil {
		t.Fatal(err)
	}
	if rep.ChatsAdded != 2 || rep.MessagesAdded != 11 {
		t.Fatalf("report = %+v", rep)
	}
	id := "chatgpt-6630a1b2-0000-4000-8000-000000000001"
	msgs, _ := s.ListMessages(ctx, id)
	if len(msgs) != 4 || msgs[1].ID != "chatgpt-a-1b" || msgs[1].Versions != 2 || msgs[1].Version != 2 {
		t.Fatalf("imported path = %+v", msgs)
	}
	// The other branch is a version to switch to.
	if _, err := s.SwitchVersion(ctx, "chatgpt-u-2"); err != nil {
		t.Fatal(err)
	}
	msgs, _ = s.ListMessages(ctx, id)
	var got []string
	for _, m := range msgs {
		got = append(got, strings.TrimPrefix(m.ID, "chatgpt-"))
	}
	if strings.Join(got, " ") != "u-1 a-1b u-2 a-2 t-2 a-3" {
		t.Fatalf("after switching: %v", got)
	}
	if hits, _ := s.Search(ctx, "itertools", 10); len(hits) < 2 {
		t.Fatalf("imported ChatGPT messages not searchable: %+v", hits)
	}
	// The same file again adds nothing.
	rep, err = Import(ctx, s, readChatGPTFixture(t))
	if err != nil || rep.ChatsAdded != 0 || rep.MessagesAdded != 0 || rep.MessagesSkipped != 11 {
		t.Fatalf("re-import = %+v, %v", rep, err)
	}
	// And it exports like any chat.
	out, err := Build(ctx, s, []string{id})
	if err != nil || len(out.Chats[0].Messages) != 9 {
		t.Fatalf("export of the imported chat: %v", err)
	}
}

func TestChatGPTBadFiles(t *testing.T) {
	for _, tc := range []struct{ name, file, want string }{
		{"number", `42`, "not an Airlock export or a ChatGPT conversations.json"},
		{"no-mapping", `[{"title":"x","mapping":{}}, {"title":"y"}]`, "conversations[1].mapping: missing"},
		{"not-object", `[{"title":"x","mapping":{}}, 7]`, "conversations[1]: want an object, got a number"},
		{"no-author", `[{"title":"x","conversation_id":"c","mapping":{"n":{"id":"n","message":{"content":{"content_type":"text","parts":["hi"]}},"parent":null,"children":[]}}}]`,
			`conversations[0].mapping["n"].message.author.role: missing`},
		{"bad-content", `[{"title":"x","conversation_id":"c","mapping":{"n":{"id":"n","message":{"author":{"role":"user"},"content":"hi"},"parent":null,"children":[]}}}]`,
			`conversations[0].mapping["n"].message.content: want an object, got a string`},
		{"truncated", `[{"title":"x","mapping":{"n":{"id":"n"`, "truncated at byte 38"},
		{"same-conversation-twice", `[{"id":"c","mapping":{"n":{"id":"n","message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["hi"]}},"children":[]}}},
			{"id":"c","mapping":{"m":{"id":"m","message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["hi"]}},"children":[]}}}]`, `is also the id of chats[0]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Read(strings.NewReader(tc.file))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, chat.ErrInvalid) {
				t.Fatalf("error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// Branches that loop back (a damaged file) do not hang the importer; with
// no first message to start from, nothing is read and the file is refused
// (it used to make an empty chat).
func TestChatGPTLoopingMapping(t *testing.T) {
	f := `[{"title":"loop","conversation_id":"l","current_node":"b","mapping":{
		"a":{"id":"a","message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["one"]}},"parent":"b","children":["b"]},
		"b":{"id":"b","message":{"author":{"role":"assistant"},"content":{"content_type":"text","parts":["two"]}},"parent":"a","children":["a"]}}}]`
	b, _, err := Read(strings.NewReader(f))
	if err == nil || !strings.Contains(err.Error(), "no messages to import") || len(b.Chats) != 0 {
		t.Fatalf("Read = %+v, %v", b.Chats, err)
	}
}
