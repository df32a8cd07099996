package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/store"
)

// seedDataDir makes a data directory with two chats, one with a tool call.
func seedDataDir(t *testing.T) (dir string, ids []string) {
	t.Helper()
	ctx := context.Background()
	dir = t.TempDir()
	s, err := store.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, title := range []string{"Groceries", "Trip <plans>"} {
		c, err := s.CreateChat(ctx, title)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID)
		s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleUser, Content: "What about " + title + "?"})
		a, _ := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Content: "Let me **check**."})
		s.AddCalls(ctx, []chat.Call{{ChatID: c.ID, MessageID: a.ID, Name: "read_file",
			Arguments: json.RawMessage(`{"path":"list.txt"}`), State: chat.CallDenied, DecidedBy: chat.ByUser, DecidedAt: 1}})
	}
	return dir, ids
}

var exportedAt = regexp.MustCompile(`"exportedAt": \d+`)

func TestExportFormats(t *testing.T) {
	dir, ids := seedDataDir(t)
	code, out, errs := runCLI(t, "", "export", "--data-dir", dir, "--chat", ids[1], "--format", "md", "--tz", "UTC")
	if code != exitOK || !strings.Contains(out, "# Trip \\<plans\\>") || !strings.Contains(out, "Tool call read_file — denied") {
		t.Fatalf("md: code %d, stderr %q\n%s", code, errs, out)
	}
	if strings.Contains(out, "Groceries") {
		t.Error("--chat exported another chat")
	}
	code, out, _ = runCLI(t, "", "export", "--data-dir", dir, "--all", "--format", "html")
	if code != exitOK || !strings.HasPrefix(out, "<!DOCTYPE html>") || !strings.Contains(out, "Trip &lt;plans&gt;") ||
		!strings.Contains(out, "Groceries") || strings.Contains(out, "<script") {
		t.Fatalf("html: code %d\n%s", code, out)
	}
	// -o picks the format from the extension and writes the file.
	file := filepath.Join(t.TempDir(), "all.json")
	code, out, errs = runCLI(t, "", "export", "--data-dir", dir, "--all", "-o", file)
	if code != exitOK || out != "" || !strings.Contains(errs, "Exported 2 chats to") {
		t.Fatalf("json to file: code %d, out %q, err %q", code, out, errs)
	}
	data, _ := os.ReadFile(file)
	var b struct {
		Format string `json:"format"`
		Chats  []struct {
			Messages []any `json:"messages"`
		} `json:"chats"`
	}
	if err := json.Unmarshal(data, &b); err != nil || b.Format != "airlock-export" || len(b.Chats) != 2 || len(b.Chats[0].Messages) != 2 {
		t.Fatalf("exported file: %v %+v", err, b)
	}
}

func TestExportErrors(t *testing.T) {
	dir, ids := seedDataDir(t)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--data-dir", dir, "--format", "md"}, exitUsage, "--chat ID (repeatable) or --all"},
		{[]string{"--data-dir", dir, "--all", "--chat", ids[0], "--format", "md"}, exitUsage, "exclude each other"},
		{[]string{"--data-dir", dir, "--all"}, exitUsage, "--format is required"},
		{[]string{"--data-dir", dir, "--all", "--format", "pdf"}, exitUsage, `unknown format "pdf"`},
		{[]string{"--data-dir", dir, "--all", "--format", "md", "--tz", "Mars/Olympus"}, exitUsage, "--tz"},
		{[]string{"--data-dir", dir, "--chat", "nope", "--format", "json"}, exitUnreadable, "chat nope not found"},
		{[]string{"--data-dir", t.TempDir(), "--all", "--format", "json"}, exitUnreadable, "no Airlock database"},
	} {
		code, out, errs := runCLI(t, "", append([]string{"export"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errs, tc.want) || out != "" {
			t.Errorf("export %v: code %d, stderr %q, stdout %q; want %d and %q", tc.args, code, errs, out, tc.code, tc.want)
		}
	}
	// A failed export to a file leaves no file behind.
	file := filepath.Join(t.TempDir(), "x.json")
	runCLI(t, "", "export", "--data-dir", dir, "--chat", "nope", "-o", file)
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("failed export left %s", file)
	}
}

// export json → import into a new data directory → export json: the same
// document (but for the export time), and importing again adds nothing.
func TestExportImportRoundTrip(t *testing.T) {
	dir, _ := seedDataDir(t)
	code, first, _ := runCLI(t, "", "export", "--data-dir", dir, "--all", "--format", "json")
	if code != exitOK {
		t.Fatal(code)
	}
	file := filepath.Join(t.TempDir(), "export.json")
	os.WriteFile(file, []byte(first), 0o644)

	other := t.TempDir()
	code, out, errs := runCLI(t, "", "import", "--data-dir", other, file)
	if code != exitOK || out != "Imported 2 new chats: 4 messages and 2 tool calls added. (from an Airlock export)\n" {
		t.Fatalf("import: code %d, out %q, err %q", code, out, errs)
	}
	code, second, _ := runCLI(t, "", "export", "--data-dir", other, "--all", "--format", "json")
	if code != exitOK || exportedAt.ReplaceAllString(first, "") != exportedAt.ReplaceAllString(second, "") {
		t.Fatalf("round trip differs:\n%s\n---\n%s", first, second)
	}
	// Again, from standard input: nothing new.
	code, out, _ = runCLI(t, first, "import", "--data-dir", other, "-")
	if code != exitOK || !strings.Contains(out, "0 new chats and 2 chats already here: 0 messages and 0 tool calls added; 4 messages and 2 tool calls were already here") {
		t.Fatalf("re-import: code %d, out %q", code, out)
	}
}

func TestImportChatGPTFile(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runCLI(t, "", "import", "--data-dir", dir, filepath.Join("..", "..", "backend", "export", "testdata", "chatgpt_conversations.json"))
	if code != exitOK || !strings.Contains(out, "Imported 2 new chats: 11 messages") || !strings.Contains(out, "ChatGPT export") {
		t.Fatalf("code %d, out %q, err %q", code, out, errs)
	}
	s, _ := store.OpenDir(dir)
	defer s.Close()
	msgs, err := s.ListMessages(context.Background(), "chatgpt-6630a1b2-0000-4000-8000-000000000001")
	if err != nil || len(msgs) != 4 {
		t.Fatalf("imported path: %d, %v", len(msgs), err)
	}
}

func TestImportBadFiles(t *testing.T) {
	dir := t.TempDir()
	tmp := t.TempDir()
	for name, content := range map[string]string{
		"truncated.json": `{"format":"airlock-export","version":1,"chats":[{"id":"c","mess`,
		"future.json":    `{"format":"airlock-export","version":7,"chats":[]}`,
		"missing.json":   `{"format":"airlock-export","version":1,"chats":[{"id":"c","messages":[{"id":"m"}]}]}`,
	} {
		file := filepath.Join(tmp, name)
		os.WriteFile(file, []byte(content), 0o644)
		code, out, errs := runCLI(t, "", "import", "--data-dir", dir, file)
		if code != exitUnreadable || out != "" || !strings.Contains(errs, "cannot import") || !strings.Contains(errs, name) {
			t.Errorf("%s: code %d, out %q, err %q", name, code, out, errs)
		}
	}
	code, _, errs := runCLI(t, "", "import", "--data-dir", dir, filepath.Join(tmp, "missing.json"))
	if !strings.Contains(errs, "chats[0].messages[0].role: missing") {
		t.Errorf("missing field: %d %q", code, errs)
	}
	if code, _, errs := runCLI(t, "", "import", "--data-dir", dir, filepath.Join(tmp, "nope.json")); code != exitUnreadable || !strings.Contains(errs, "no such file") {
		t.Errorf("absent file: %d %q", code, errs)
	}
	if code, _, _ := runCLI(t, "", "import", "--data-dir", dir); code != exitUsage {
		t.Errorf("no file: %d", code)
	}
	// Nothing was imported by the failures.
	s, _ := store.OpenDir(dir)
	defer s.Close()
	if cs, _ := s.ListChats(context.Background()); len(cs) != 0 {
		t.Fatalf("%d chats after failed imports", len(cs))
	}
}

func TestHelpListsTransferCommands(t *testing.T) {
	_, out, _ := runCLI(t, "", "help")
	for _, c := range []string{"export", "import", "scan"} {
		if !strings.Contains(out, "  "+c) {
			t.Errorf("help does not list %s:\n%s", c, out)
		}
	}
}
