package facade

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/store"
)

// The new chat's folder is checked at Save: a folder that does not exist is
// refused with the reason (issue 30, item 1).
func TestCheckWorkspaceFolderRefusesMissingFolder(t *testing.T) {
	a := testApp(t)
	dir := t.TempDir()
	if err := a.CheckWorkspaceFolder("folder", dir); err != nil {
		t.Fatalf("an existing folder: %v", err)
	}
	missing := filepath.Join(dir, "gone")
	err := a.CheckWorkspaceFolder("overlay", missing)
	if err == nil || !strings.Contains(err.Error(), "does not exist") || !strings.Contains(err.Error(), "not_found") {
		t.Fatalf("a missing folder: %v", err)
	}
	file := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := a.CheckWorkspaceFolder("folder", file); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Fatalf("a file: %v", err)
	}
	if err := a.CheckWorkspaceFolder("folder", "rel/dir"); err == nil || !strings.Contains(err.Error(), "full path") {
		t.Fatalf("a relative path: %v", err)
	}
	if err := a.CheckWorkspaceFolder("scratch", ""); err != nil {
		t.Fatalf("scratch needs no folder: %v", err)
	}
}

// Activity's export writes what the view shows: its tool and decision
// filters apply, and the CSV names each chat by its title (issue 30, item
// 4). Before, the export took the chat only and the CSV had ids alone.
func TestActivityExportFollowsTheFilters(t *testing.T) {
	a := testApp(t)
	c, err := a.CreateChat()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.store.RenameChat(a.ctx, c.ID, "Budget, 2026"); err != nil {
		t.Fatal(err)
	}
	for _, e := range []chat.AuditEntry{
		{ChatID: c.ID, Tool: "read_file", Decision: chat.AuditApproved, DecidedBy: chat.ByUser},
		{ChatID: c.ID, Tool: "write_file", Decision: chat.AuditDenied, DecidedBy: chat.ByUser},
		{ChatID: c.ID, Tool: "read_file", Decision: chat.AuditDenied, DecidedBy: chat.ByUser},
	} {
		if _, err := a.store.AddAudit(a.ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	data, name, err := a.activityExport(store.AuditQuery{Decision: "denied", Tool: "read_file"}, "csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("the header and the one denied read_file: %q %v", rows, err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	if r := rows[1]; r[col["tool"]] != "read_file" || r[col["decision"]] != "denied" || r[col["chat_title"]] != "Budget, 2026" {
		t.Fatalf("row: %q", r)
	}
	if name != "airlock-activity" {
		t.Fatalf("name: %q", name)
	}
}
