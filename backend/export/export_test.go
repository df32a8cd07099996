package export

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"airlock/backend/chat"
	"airlock/backend/store"
)

func write(t testing.TB, b Bundle, format string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, b, format, In(time.UTC)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGoldenJSON(t *testing.T) {
	b, _ := fixtureBundle(t)
	golden(t, "export.json", write(t, b, "json"))
}

func TestGoldenMarkdown(t *testing.T) {
	b, _ := fixtureBundle(t)
	golden(t, "export.md", write(t, b, "md"))
	one := b
	one.Chats = b.Chats[1:]
	golden(t, "export_one.md", write(t, one, "md"))
}

func TestGoldenHTML(t *testing.T) {
	b, _ := fixtureBundle(t)
	golden(t, "export.html", write(t, b, "html"))
}

func TestBuildContents(t *testing.T) {
	b, _ := fixtureBundle(t)
	if b.Format != Format || b.Version != Version || len(b.Chats) != 2 {
		t.Fatalf("bundle = %+v", b)
	}
	// Sidebar order: the pinned chat first.
	notes, lisbon := b.Chats[0], b.Chats[1]
	if notes.ID != "chat-notes" || !notes.Pinned || notes.Options.WorkspaceDir != "/home/ana/notes" {
		t.Fatalf("first chat = %+v", notes)
	}
	if len(lisbon.Messages) != 5 || lisbon.LeafID != "m5-final" {
		t.Fatalf("lisbon has %d messages (every version), leaf %q", len(lisbon.Messages), lisbon.LeafID)
	}
	path := lisbon.ActivePath()
	var ids []string
	for _, m := range path {
		ids = append(ids, fmt.Sprintf("%s(%d/%d)", m.ID, m.Version, m.Versions))
	}
	if got := strings.Join(ids, " "); got != "m1-user(1/1) m3-answer(2/2) m4-results(1/1) m5-final(1/1)" {
		t.Fatalf("active path = %s", got)
	}
	read := lisbon.Calls[0]
	if read.Decision == nil || read.Decision.By != chat.ByUser || read.Decision.At != at(4) || string(read.Edited) == "null" {
		t.Fatalf("read call = %+v", read)
	}
	if d := lisbon.Calls[1].Decision; d == nil || d.Reason != "keep my files" {
		t.Fatalf("denied call decision = %+v", d)
	}
	if f := lisbon.ScratchFiles[2]; f.Path != "photo.bin" || f.Encoding != "base64" {
		t.Fatalf("binary scratch file = %+v", f)
	}
	// Nothing secret: providers and settings are not in the bundle. The
	// chat's agent is, by value (its system prompt too), without provider.
	out := string(write(t, b, "json"))
	if lisbon.Agent == nil || lisbon.Agent.ID != chat.DefaultAgentID || lisbon.Agent.ProviderID != "" {
		t.Errorf("the chat's agent = %+v", lisbon.Agent)
	}
	for _, secret := range []string{"apiKey", "api_key", "baseUrl", "activeProviderId"} {
		if strings.Contains(out, secret) {
			t.Errorf("the export mentions %s", secret)
		}
	}
}

func TestSecretsStayOut(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	fixture(t, s)
	if _, err := s.SaveProvider(ctx, chat.Provider{Name: "Mine", BaseURL: "https://api.example.com", APIKey: "sk-SECRET-123", Model: "m"}); err != nil {
		t.Fatal(err)
	}
	st := chat.DefaultSettings()
	st.SystemPrompt = "PRIVATE-PROMPT"
	if err := s.SaveSettings(ctx, st); err != nil {
		t.Fatal(err)
	}
	b, _ := Build(ctx, s, nil)
	for _, format := range []string{"json", "md", "html"} {
		out := string(write(t, b, format))
		for _, secret := range []string{"sk-SECRET-123", "api.example.com", "PRIVATE-PROMPT"} {
			if strings.Contains(out, secret) {
				t.Errorf("%s export contains %q", format, secret)
			}
		}
	}
}

// Export → import into an empty database → export: the same bytes, but
// for the folder workspace, which comes back as scratch (a folder named in
// a file is not one picked on this computer).
func TestJSONRoundTripIsExact(t *testing.T) {
	ctx := context.Background()
	b, src := fixtureBundle(t)
	first := write(t, b, "json")

	read, err := ReadJSON(bytes.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	dst := newStore(t)
	rep, err := Import(ctx, dst, read)
	if err != nil {
		t.Fatal(err)
	}
	if rep.ChatsAdded != 2 || rep.MessagesAdded != 7 || rep.CallsAdded != 2 || rep.FilesAdded != 3 || rep.AuditAdded != 3 {
		t.Fatalf("report = %+v", rep)
	}
	if rep.FoldersReset != 1 || !strings.Contains(rep.String(), "1 chat worked in a folder") || !strings.Contains(rep.String(), "choose the folder again") {
		t.Errorf("folder reset not reported: %+v %q", rep, rep.String())
	}
	if !strings.Contains(rep.String(), "3 decisions of the audit trail") {
		t.Errorf("report line = %q", rep.String())
	}
	// The trail is restored as it was: the same rows, in the same order.
	var got []chat.AuditEntry
	_ = dst.EachAudit(ctx, store.AuditQuery{ChatID: "chat-lisbon"}, func(e chat.AuditEntry) error { got = append(got, e); return nil })
	if len(got) != 3 || got[0].UID != "audit-1" || got[0].Decision != chat.AuditEdited || string(got[0].RunArguments) != `{"path":"notes/lisbon.md","limit":50}` ||
		got[1].Detail != "keep my files" || got[2].DurationMs != 250 || got[2].ChatID != "chat-lisbon" || !got[0].Imported {
		t.Fatalf("imported trail: %+v", got)
	}
	again, err := Build(ctx, dst, nil)
	if err != nil {
		t.Fatal(err)
	}
	again.ExportedAt = b.ExportedAt
	second := write(t, again, "json")
	for i := range b.Chats {
		if b.Chats[i].Options.WorkspaceKind != "scratch" {
			b.Chats[i].Options.WorkspaceKind, b.Chats[i].Options.WorkspaceDir = "scratch", ""
		}
		for j := range b.Chats[i].Audit { // the rows an import adds say so
			b.Chats[i].Audit[j].Imported = true
		}
	}
	first = write(t, b, "json")
	if !bytes.Equal(first, second) {
		t.Fatalf("round trip differs:\n--- first ---\n%s\n--- second ---\n%s", first, second)
	}
	// The imported chats work like the originals.
	for _, id := range []string{"chat-lisbon", "chat-notes"} {
		want, _ := src.ListMessages(ctx, id)
		got, err := dst.ListMessages(ctx, id)
		if err != nil || len(got) != len(want) {
			t.Fatalf("%s: %d messages, %v; want %d", id, len(got), err, len(want))
		}
		for i := range want {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("%s message %d:\n got %+v\nwant %+v", id, i, got[i], want[i])
			}
		}
	}
	if hits, _ := dst.Search(ctx, "Alfama", 10); len(hits) == 0 {
		t.Fatal("imported messages are not searchable")
	}
	files, _ := dst.LoadScratch(ctx, "chat-lisbon")
	if len(files) != 3 || !bytes.Equal(files[2].Content, []byte{0xff, 0x00, 0xfe, 'x'}) {
		t.Fatalf("scratch files = %+v", files)
	}
}

func TestReimportAddsNothing(t *testing.T) {
	ctx := context.Background()
	b, _ := fixtureBundle(t)
	dst := newStore(t)
	if _, err := Import(ctx, dst, b); err != nil {
		t.Fatal(err)
	}
	rep, err := Import(ctx, dst, b)
	if err != nil {
		t.Fatal(err)
	}
	if rep.ChatsAdded != 0 || rep.ChatsMerged != 2 || rep.MessagesAdded != 0 || rep.CallsAdded != 0 || rep.MessagesSkipped != 7 || rep.CallsSkipped != 2 ||
		rep.AuditAdded != 0 || rep.AuditSkipped != 3 {
		t.Fatalf("second import = %+v", rep)
	}
	if !strings.Contains(rep.String(), "0 new chats and 2 chats already here") {
		t.Errorf("report line = %q", rep.String())
	}
	cs, _ := dst.ListChats(ctx)
	msgs, _ := dst.ListMessages(ctx, "chat-lisbon")
	files, _ := dst.LoadScratch(ctx, "chat-lisbon")
	if len(cs) != 2 || len(msgs) != 4 || len(files) != 3 {
		t.Fatalf("after re-import: %d chats, %d messages on the path, %d files", len(cs), len(msgs), len(files))
	}
}

// A newer export of a chat brings its new messages, and the active path
// follows when it continues the local one.
func TestImportMergesNewMessages(t *testing.T) {
	ctx := context.Background()
	b, src := fixtureBundle(t)
	dst := newStore(t)
	if _, err := Import(ctx, dst, b); err != nil {
		t.Fatal(err)
	}
	if _, err := src.AddMessage(ctx, chat.Message{ID: "m6-more", ChatID: "chat-lisbon", Role: chat.RoleUser, Content: "And dinner?"}); err != nil {
		t.Fatal(err)
	}
	newer, _ := Build(ctx, src, []string{"chat-lisbon"})
	rep, err := Import(ctx, dst, newer)
	if err != nil {
		t.Fatal(err)
	}
	if rep.MessagesAdded != 1 || rep.MessagesSkipped != 5 || rep.ChatsMerged != 1 {
		t.Fatalf("report = %+v", rep)
	}
	msgs, _ := dst.ListMessages(ctx, "chat-lisbon")
	if last := msgs[len(msgs)-1]; last.ID != "m6-more" {
		t.Fatalf("path ends at %s, want the imported continuation", last.ID)
	}
}

func TestImportConflictImportsNothing(t *testing.T) {
	ctx := context.Background()
	b, _ := fixtureBundle(t)
	dst := newStore(t)
	other, _ := dst.CreateChat(ctx, "mine")
	if _, err := dst.AddMessage(ctx, chat.Message{ID: "n2", ChatID: other.ID, Role: chat.RoleUser, Content: "x"}); err != nil {
		t.Fatal(err)
	}
	_, err := Import(ctx, dst, b)
	if err == nil || !strings.Contains(err.Error(), "n2") || !strings.Contains(err.Error(), "another chat") {
		t.Fatalf("Import = %v, want a conflict naming n2", err)
	}
	if cs, _ := dst.ListChats(ctx); len(cs) != 1 {
		t.Fatalf("a failed import left %d chats", len(cs))
	}
}

func TestBadFilesFailCleanly(t *testing.T) {
	b, _ := fixtureBundle(t)
	good := string(write(t, b, "json"))
	edit := func(f func(m map[string]any)) string {
		var m map[string]any
		json.Unmarshal([]byte(good), &m)
		f(m)
		out, _ := json.Marshal(m)
		return string(out)
	}
	msg := func(m map[string]any, chat, i int) map[string]any {
		return m["chats"].([]any)[chat].(map[string]any)["messages"].([]any)[i].(map[string]any)
	}
	audit := func(m map[string]any, i int) map[string]any {
		return m["chats"].([]any)[1].(map[string]any)["audit"].([]any)[i].(map[string]any)
	}
	for _, tc := range []struct{ name, file, want string }{
		{"empty", "", "the file is empty"},
		{"spaces", "  \n ", "the file is empty"},
		{"truncated", good[:len(good)/2], fmt.Sprintf("truncated at byte %d", len(good)/2)},
		{"truncated-end", good[:len(good)-3], "truncated"},
		{"garbage", "{\"format\": airlock}", "not valid JSON"},
		{"not-object", `"hello"`, "not an Airlock export or a ChatGPT"},
		{"no-format", `{"version":1,"chats":[]}`, `no "format" field`},
		{"wrong-format", `{"format":"other-app","version":1,"chats":[]}`, `"format" is "other-app"`},
		{"future-version", edit(func(m map[string]any) { m["version"] = 2 }), "unsupported export version 2 (this Airlock reads version 1)"},
		{"no-version", edit(func(m map[string]any) { delete(m, "version") }), "version: missing"},
		{"no-chats", edit(func(m map[string]any) { delete(m, "chats") }), "chats: missing"},
		{"chats-not-array", edit(func(m map[string]any) { m["chats"] = "x" }), "chats: want an array"},
		{"missing-role", edit(func(m map[string]any) { delete(msg(m, 1, 3), "role") }), "chats[1].messages[3].role: missing"},
		{"missing-id", edit(func(m map[string]any) { delete(m["chats"].([]any)[0].(map[string]any), "id") }), "chats[0].id: missing"},
		{"bad-type", edit(func(m map[string]any) { msg(m, 1, 0)["createdAt"] = "yesterday" }), "chats[1].messages[0].createdAt: want a number, got string"},
		{"bad-role", edit(func(m map[string]any) { msg(m, 1, 0)["role"] = "robot" }), `chats[1].messages[0].role: unknown role "robot"`},
		{"bad-parent", edit(func(m map[string]any) { msg(m, 1, 1)["parentId"] = "nope" }), `chats[1].messages[1].parentId: no message "nope"`},
		{"loop", edit(func(m map[string]any) { msg(m, 1, 0)["parentId"] = "m5-final" }), "loop"},
		{"bad-leaf", edit(func(m map[string]any) { m["chats"].([]any)[1].(map[string]any)["leafId"] = "gone" }), `chats[1].leafId: no message "gone"`},
		{"duplicate-id", edit(func(m map[string]any) { msg(m, 1, 1)["id"] = "m1-user" }), `chats[1].messages[1].id: "m1-user" is also the id of chats[1].messages[0]`},
		{"call-message", edit(func(m map[string]any) {
			m["chats"].([]any)[1].(map[string]any)["calls"].([]any)[0].(map[string]any)["messageId"] = "n1"
		}), `chats[1].calls[0].messageId: no message "n1" in this chat`},
		{"bad-state", edit(func(m map[string]any) {
			m["chats"].([]any)[1].(map[string]any)["calls"].([]any)[0].(map[string]any)["state"] = "maybe"
		}), `chats[1].calls[0].state: unknown state "maybe"`},
		{"bad-base64", edit(func(m map[string]any) {
			m["chats"].([]any)[1].(map[string]any)["scratchFiles"].([]any)[2].(map[string]any)["content"] = "!!!"
		}), "chats[1].scratchFiles[2].content: not valid base64"},
		{"audit-decision", edit(func(m map[string]any) { audit(m, 0)["decision"] = "waved-through" }), `chats[1].audit[0].decision: unknown decision "waved-through"`},
		{"audit-decider", edit(func(m map[string]any) { audit(m, 1)["decidedBy"] = "rule:abc" }), `chats[1].audit[1].decidedBy: unknown decider "rule:abc"`},
		{"audit-no-id", edit(func(m map[string]any) { delete(audit(m, 0), "id") }), "chats[1].audit[0].id: missing"},
		{"audit-duplicate-id", edit(func(m map[string]any) { audit(m, 1)["id"] = "m1-user" }), `chats[1].audit[1].id: "m1-user" is also the id of chats[1].messages[0]`},
		{"audit-negative", edit(func(m map[string]any) { audit(m, 2)["durationMs"] = -5 }), "chats[1].audit[2]: times, durations and rule ids cannot be negative"},
		{"audit-status", edit(func(m map[string]any) { audit(m, 2)["resultStatus"] = "great" }), `chats[1].audit[2].resultStatus: unknown status "great"`},
		{"audit-long-id", edit(func(m map[string]any) { audit(m, 2)["id"] = strings.Repeat("x", 200) }), "chats[1].audit[2].id: longer than 128 bytes"},
		{"audit-huge-args", edit(func(m map[string]any) { audit(m, 2)["arguments"] = map[string]any{"c": strings.Repeat("x", 300<<10)} }),
			"chats[1].audit[2].arguments: longer than"},
		{"audit-not-array", edit(func(m map[string]any) { m["chats"].([]any)[1].(map[string]any)["audit"] = "x" }), "chats[1].audit: want an array"},
		{"bad-paradigm", edit(func(m map[string]any) {
			m["chats"].([]any)[0].(map[string]any)["options"].(map[string]any)["paradigm"] = "yaml"
		}), `chats[0].options.paradigm: unknown paradigm "yaml"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := newStore(t)
			b, _, err := Read(strings.NewReader(tc.file))
			if err == nil {
				_, err = Import(context.Background(), dst, b)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v\nwant one containing %q", err, tc.want)
			}
			if !errors.Is(err, chat.ErrInvalid) || !strings.HasPrefix(err.Error(), "cannot import: ") {
				t.Errorf("error %q is not an invalid-input error starting \"cannot import: \"", err)
			}
			if cs, _ := dst.ListChats(context.Background()); len(cs) != 0 {
				t.Fatalf("a failed import stored %d chats", len(cs))
			}
		})
	}
}

// Hostile content stays inert in the HTML export: no script runs, no
// handler is set, nothing loads from elsewhere.
func TestHostileContentIsInertInHTML(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, `<script>alert("title")</script>`)
	evil := []string{
		`<script>alert(1)</script>`,
		`<SCRIPT SRC=https://evil.example/x.js></SCRIPT>`,
		`[click](javascript:alert(1)) [click2](JAVASCRIPT:alert(2)) [x](vbscript:msgbox) [d](data:text/html;base64,PHNjcmlwdD4=)`,
		`<a href="javascript:alert(3)">raw link</a>`,
		`<img src=x onerror=alert(4)> <img src="https://evil.example/track.png">`,
		`![tracker](https://evil.example/pixel.gif) ![local](file:///etc/passwd)`,
		`<iframe src="https://evil.example"></iframe><object data="x"></object><embed src="y">`,
		`<svg onload=alert(5)><circle/></svg> <math><mi xlink:href="javascript:alert(6)">x</mi></math>`,
		`<style>body{background:url(https://evil.example/bg)}</style><link rel=stylesheet href=https://evil.example/s.css>`,
		`<meta http-equiv="refresh" content="0;url=https://evil.example"><base href="https://evil.example/">`,
		`<form action="https://evil.example"><input name=x></form>`,
		"```html\n<script>alert(7)</script>\n```",
		`<div onclick="alert(8)" style="background:url(https://evil.example/z)">styled</div>`,
		`<a href="https://example.org" onmouseover="alert(9)">ok link</a>`,
	}
	for i, e := range evil {
		role := chat.RoleAssistant
		if i%3 == 0 {
			role = chat.RoleUser
		}
		if _, err := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: role, Content: e, Reasoning: e, Model: `"><script>alert(10)</script>`}); err != nil {
			t.Fatal(err)
		}
	}
	last, _ := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Content: "calling"})
	s.AddCalls(ctx, []chat.Call{{ChatID: c.ID, MessageID: last.ID, Name: `<img src=x onerror=alert(11)>`,
		Arguments: json.RawMessage(`{"html":"<script>alert(12)</script>"}`), State: chat.CallDone,
		Result: `<script>alert(13)</script><img src="https://evil.example/r.png" onerror="alert(14)">`, ResultState: chat.ToolSuccess,
		Problem: `<b onmouseover=alert(15)>x</b>`}})
	s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleUser, Kind: chat.KindToolResults, Content: `<script>alert(16)</script>`})
	b, err := Build(ctx, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := write(t, b, "html")
	lower := strings.ToLower(string(out))
	if strings.Contains(lower, "<script") {
		t.Error("the page contains a <script tag")
	}
	doc, err := html.Parse(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "script", "iframe", "object", "embed", "form", "base", "link", "svg", "math", "input":
				if !(n.Data == "input" && attr(n, "type") == "checkbox") {
					t.Errorf("element <%s> in the page", n.Data)
				}
			case "meta":
				if he := attr(n, "http-equiv"); he != "" && !strings.EqualFold(he, "Content-Security-Policy") {
					t.Errorf("<meta http-equiv=%q> in the page", he)
				}
			case "style":
				if n.Parent == nil || n.Parent.Data != "head" {
					t.Error("a <style> element outside the head")
				}
			}
			for _, a := range n.Attr {
				key, val := strings.ToLower(a.Key), strings.ToLower(strings.TrimSpace(a.Val))
				if strings.HasPrefix(key, "on") {
					t.Errorf("<%s %s=%q>: an event handler", n.Data, a.Key, a.Val)
				}
				if key == "style" {
					t.Errorf("<%s style=%q>: inline style from content", n.Data, a.Val)
				}
				if key == "href" || key == "src" || key == "action" || key == "xlink:href" || key == "data" {
					for _, bad := range []string{"javascript:", "vbscript:", "data:text", "file:"} {
						if strings.Contains(val, bad) {
							t.Errorf("<%s %s=%q>", n.Data, a.Key, a.Val)
						}
					}
				}
				if (key == "src" || key == "srcset" || key == "poster") && val != "" && !strings.HasPrefix(val, "data:image/") {
					t.Errorf("<%s %s=%q>: would load from elsewhere", n.Data, a.Key, a.Val)
				}
			}
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			walk(ch)
		}
	}
	walk(doc)
	// The content is still there, as text.
	for _, text := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;", "alert(13)", "ok link", "tracker"} {
		if !strings.Contains(string(out), text) {
			t.Errorf("the page lost %q", text)
		}
	}
	if !strings.Contains(string(out), `Content-Security-Policy" content="default-src 'none'`) {
		t.Error("no Content-Security-Policy")
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if strings.EqualFold(a.Key, key) {
			return a.Val
		}
	}
	return ""
}

func TestReadDetectsTheSource(t *testing.T) {
	b, _ := fixtureBundle(t)
	if _, src, err := Read(bytes.NewReader(write(t, b, "json"))); err != nil || src != SourceAirlock {
		t.Fatalf("Airlock export: %s, %v", src, err)
	}
	// Recognised as ChatGPT's shape, but with nothing to read: refused,
	// never made into an empty chat.
	for _, f := range []string{`[]`, `[{"title":"t","mapping":{}}]`, `{"title":"t","mapping":{}}`,
		`[{"mapping":{"a":{"id":"a","children":[]}}}]`} {
		b, src, err := Read(strings.NewReader(f))
		if err == nil || src != SourceChatGPT || !strings.Contains(err.Error(), "no messages to import") || len(b.Chats) != 0 {
			t.Errorf("%s: %s, %v", f, src, err)
		}
	}
}

func TestWriteRejectsUnknownFormat(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, Bundle{}, "pdf"); !errors.Is(err, chat.ErrInvalid) {
		t.Fatalf("Write pdf = %v", err)
	}
}

// Exporting twice gives the same bytes (but for exportedAt).
func TestExportIsDeterministic(t *testing.T) {
	b1, s := fixtureBundle(t)
	b2, err := Build(context.Background(), s, nil)
	if err != nil {
		t.Fatal(err)
	}
	b2.ExportedAt = b1.ExportedAt
	for _, f := range []string{"json", "md", "html"} {
		if !bytes.Equal(write(t, b1, f), write(t, b2, f)) {
			t.Errorf("%s export differs between two runs", f)
		}
	}
}

// A chat being answered exports as it stands, settled: the answer as
// interrupted, a running call as interrupted.
func TestSnapshotSettlesWhatIsInFlight(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "live")
	m, _ := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Status: chat.StatusStreaming, Content: "half"})
	s.AddCalls(ctx, []chat.Call{{ChatID: c.ID, MessageID: m.ID, Name: "x", State: chat.CallRunning}})
	b, _ := Build(ctx, s, []string{c.ID})
	if st := b.Chats[0].Messages[0].Status; st != "interrupted" {
		t.Errorf("streaming message exported as %s", st)
	}
	if st := b.Chats[0].Calls[0].State; st != "interrupted" {
		t.Errorf("running call exported as %s", st)
	}
	if _, err := Build(ctx, s, []string{"missing"}); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("Build of a missing chat = %v", err)
	}
}

// A native chat's Markdown does not claim its calls were written as JSON
// (issue 30, item 15).
func TestMarkdownSaysHowToolsWereCalled(t *testing.T) {
	b, _ := fixtureBundle(t)
	b.Chats = b.Chats[:1]
	for mode, want := range map[string]string{"native": "native tool calls", "auto": "native where the model takes them", "text": "written as"} {
		b.Chats[0].Options.ToolMode = mode
		md := string(write(t, b, "md"))
		if !strings.Contains(md, want) || (mode == "native" && strings.Contains(md, "written as")) {
			t.Errorf("%s: %s", mode, md[:min(len(md), 400)])
		}
	}
}
