package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/store"
)

// seedAudit makes a data directory with two chats and three decisions.
func seedAudit(t *testing.T) (dir string, chats []string) {
	t.Helper()
	ctx := context.Background()
	dir = t.TempDir()
	s, err := store.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, title := range []string{"one", "two"} {
		c, _ := s.CreateChat(ctx, title)
		chats = append(chats, c.ID)
	}
	for _, e := range []chat.AuditEntry{
		{ChatID: chats[0], CallID: "k1", Tool: "read_file", Decision: chat.AuditApproved, DecidedBy: chat.ByUser, At: 1000,
			Arguments: json.RawMessage(`{"path":"a"}`), RunArguments: json.RawMessage(`{"path":"a"}`)},
		{ChatID: chats[0], CallID: "k1", Tool: "read_file", Decision: chat.AuditRan, DecidedBy: chat.ByUser, At: 1200,
			ResultStatus: chat.ToolSuccess, DurationMs: 200},
		{ChatID: chats[1], CallID: "k2", Tool: "write_file", Decision: chat.AuditDenied, DecidedBy: "rule:3", RuleID: 3, At: 1500,
			Detail: "no, not there", ResultStatus: chat.ToolDenied},
	} {
		if _, err := s.AddAudit(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	return dir, chats
}

func TestAuditJSONLines(t *testing.T) {
	dir, chats := seedAudit(t)
	before, _ := os.ReadFile(filepath.Join(dir, store.FileName))
	code, out, errs := runCLI(t, "", "audit", "--data-dir", dir, "--format", "jsonl")
	if code != exitOK {
		t.Fatalf("code %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("one decision a line: %q", out)
	}
	var first, last chat.AuditEntry
	json.Unmarshal([]byte(lines[0]), &first)
	json.Unmarshal([]byte(lines[2]), &last)
	if first.Decision != chat.AuditApproved || first.ChatID != chats[0] || string(first.RunArguments) != `{"path":"a"}` ||
		last.DecidedBy != "rule:3" || last.Detail != "no, not there" {
		t.Fatalf("oldest first, as stored: %s", out)
	}
	code, out, _ = runCLI(t, "", "audit", "--data-dir", dir, "--chat", chats[1], "--format", "jsonl")
	if code != exitOK || strings.Count(out, "\n") != 1 || !strings.Contains(out, `"tool":"write_file"`) {
		t.Fatalf("--chat: %d %q", code, out)
	}
	code, out, _ = runCLI(t, "", "audit", "--data-dir", dir, "--decision", "ran", "--format", "jsonl")
	if code != exitOK || strings.Count(out, "\n") != 1 || !strings.Contains(out, `"durationMs":200`) {
		t.Fatalf("--decision: %d %q", code, out)
	}
	after, _ := os.ReadFile(filepath.Join(dir, store.FileName))
	if string(before) != string(after) {
		t.Error("airlockctl audit changed the database")
	}
}

func TestAuditCSV(t *testing.T) {
	dir, chats := seedAudit(t)
	code, out, errs := runCLI(t, "", "audit", "--data-dir", dir, "--format", "csv", "--chat", chats[0])
	if code != exitOK {
		t.Fatalf("code %d: %s", code, errs)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("a header and two rows: %q %v", out, err)
	}
	if rows[0][0] != "id" || !strings.Contains(strings.Join(rows[0], ","), "decided_by") {
		t.Errorf("header: %q", rows[0])
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	if rows[1][col["decision"]] != "approved" || rows[2][col["decision"]] != "ran" || rows[2][col["duration_ms"]] != "200" ||
		rows[1][col["chat_title"]] == "" {
		t.Errorf("rows: %q", rows[1:])
	}
	// An empty trail is a header alone.
	code, out, _ = runCLI(t, "", "audit", "--data-dir", dir, "--format", "csv", "--tool", "nothing")
	if code != exitOK || strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, "id,uid,time,") {
		t.Errorf("empty: %d %q", code, out)
	}
}

func TestAuditErrors(t *testing.T) {
	dir, _ := seedAudit(t)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"audit", "--data-dir", dir}, exitUsage, "--format is required"},
		{[]string{"audit", "--data-dir", dir, "--format", "xml"}, exitUsage, "unknown audit format"},
		{[]string{"audit", "--data-dir", dir, "--format", "csv", "--decision", "maybe"}, exitUsage, "unknown decision"},
		{[]string{"audit", "--data-dir", dir, "--format", "csv", "extra"}, exitUsage, "unexpected argument"},
		{[]string{"audit", "--data-dir", t.TempDir(), "--format", "csv"}, exitUnreadable, "no Airlock database"},
		{[]string{"audit", "--data-dir", dir, "--format", "csv", "--chat", "nope"}, exitUnreadable, "not found"},
	} {
		code, out, errs := runCLI(t, "", c.args...)
		if code != c.code || !strings.Contains(errs, c.want) || out != "" {
			t.Errorf("%v: code %d, out %q, err %q", c.args, code, out, errs)
		}
	}
}
