package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"airlock/backend/attach"
	"airlock/backend/chat"
	"airlock/backend/store"
)

// export -o chat.md writes the attached files into chat_files beside it,
// linked from the .md; to standard output they are only listed.
func TestExportMarkdownWithFiles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := store.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := s.CreateChat(ctx, "Report")
	m, _ := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleUser, Content: "see the data"})
	f, _ := attach.Check("data.csv", []byte("a,b\n1,2\n"))
	if err := s.AttachFiles(ctx, m.ID, []chat.AttachmentData{f}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	out := filepath.Join(t.TempDir(), "report.md")
	code, _, errs := runCLI(t, "", "export", "--data-dir", dir, "--all", "-o", out)
	if code != exitOK || !strings.Contains(errs, "Wrote 1 attached files to") {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	md, _ := os.ReadFile(out)
	if !strings.Contains(string(md), "[data.csv](report_files/data.csv)") {
		t.Errorf("no link to the file:\n%s", md)
	}
	if got, _ := os.ReadFile(filepath.Join(filepath.Dir(out), "report_files", "data.csv")); string(got) != "a,b\n1,2\n" {
		t.Errorf("the file beside the .md holds %q", got)
	}
	code, stdout, _ := runCLI(t, "", "export", "--data-dir", dir, "--all", "--format", "md")
	if code != exitOK || !strings.Contains(stdout, "📎 data.csv (file") || strings.Contains(stdout, "_files/") {
		t.Errorf("to standard output the files are listed, not linked:\n%s", stdout)
	}
}
