package export

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"airlock/backend/attach"
	"airlock/backend/chat"
)

// A Markdown export written to a file puts its attachments in the folder
// beside it: every link leads to the bytes attached, names are safe and
// unique, the same bytes are written once, and nothing is written outside
// the folder.
func TestMarkdownFilesRoundTrip(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	c, _ := st.CreateChat(ctx, "files")
	var pic bytes.Buffer
	_ = png.Encode(&pic, image.NewRGBA(image.Rect(0, 0, 3, 2)))
	type file struct{ name, data string }
	sent := [][]file{
		{{"shot.png", pic.String()}, {"notes.md", "# one\n"}, {"NOTES.MD", "# two\n"}, {"notes.md", "# three\n"},
			{"CON.txt", "device\n"}, {".hidden", "dot\n"}, {`a:b*c?"d|e.txt`, "reserved\n"}, {"名字 空格.md", "中文\n"}},
		{{"same.txt", "twice\n"}, {"copy.txt", "twice\n"}, {"line\nbreak\u202e.txt", "bidi\n"},
			{strings.Repeat("long", 60) + ".txt", "long\n"}},
	}
	var want []string // the bytes each listed file must link to, in order
	for i, files := range sent {
		m, _ := st.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleUser, Content: "files " + string(rune('A'+i))})
		var checked []chat.AttachmentData
		for _, f := range files {
			a, err := attach.Check(f.name, []byte(f.data))
			if err != nil {
				t.Fatalf("%q: %v", f.name, err)
			}
			checked = append(checked, a)
			want = append(want, f.data)
		}
		if err := st.AttachFiles(ctx, m.ID, checked); err != nil {
			t.Fatal(err)
		}
	}
	b, err := Build(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	md := filepath.Join(root, "my chat.md")
	n, err := WriteMarkdownFile(md, b)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := os.ReadFile(md)
	links := regexp.MustCompile(`(?m)^- 📎 \[.*\]\(([^)]+)\)`).FindAllStringSubmatch(string(text), -1)
	if len(links) != len(want) {
		t.Fatalf("%d files listed with links, want %d:\n%s", len(links), len(want), text)
	}
	for i, l := range links {
		if !strings.HasPrefix(l[1], "my%20chat_files/") {
			t.Errorf("link %q is not into the folder beside the .md", l[1])
		}
		p, err := url.PathUnescape(l[1])
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil || string(got) != want[i] {
			t.Errorf("link %d (%s): %q, %v; want %q", i, p, got, err, want[i])
		}
	}
	if !strings.Contains(string(text), "![shot.png](my%20chat_files/shot.png)") {
		t.Errorf("the image is not shown inline:\n%s", text)
	}
	entries, _ := os.ReadDir(FilesDir(md))
	if n != len(want)-1 || len(entries) != n {
		t.Errorf("%d files written, %d in the folder; want %d (the same bytes once)", n, len(entries), len(want)-1)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if seen[strings.ToLower(name)] || strings.HasPrefix(name, ".") || strings.ContainsAny(name, `/\:*?"<>|`+"\n\u202e") ||
			len(name) > maxFileName || strings.EqualFold(strings.TrimSuffix(name, filepath.Ext(name)), "CON") {
			t.Errorf("unsafe or repeated name %q", name)
		}
		seen[strings.ToLower(name)] = true
	}
	top, _ := os.ReadDir(root)
	if len(top) != 2 {
		t.Errorf("written beside the .md: %v; want only the .md and its folder", top)
	}
}

// A link planted in the folder beforehand does not lead the export out of
// it: the export fails and the file outside is untouched.
func TestMarkdownFilesStayInTheFolder(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	c, _ := st.CreateChat(ctx, "files")
	m, _ := st.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleUser, Content: "see"})
	a, _ := attach.Check("notes.md", []byte("mine\n"))
	if err := st.AttachFiles(ctx, m.ID, []chat.AttachmentData{a}); err != nil {
		t.Fatal(err)
	}
	b, _ := Build(ctx, st, nil)
	root := t.TempDir()
	outside := filepath.Join(t.TempDir(), "precious.txt")
	if err := os.WriteFile(outside, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	md := filepath.Join(root, "chat.md")
	if err := os.MkdirAll(FilesDir(md), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(FilesDir(md), "notes.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteMarkdownFile(md, b); err == nil {
		t.Error("the export wrote through a link leading outside its folder")
	}
	if got, _ := os.ReadFile(outside); string(got) != "keep\n" {
		t.Errorf("the file outside was changed: %q", got)
	}
	if _, err := os.Stat(md); err == nil {
		t.Error("a .md was left pointing at files that were not written")
	}
}

func TestDiskName(t *testing.T) {
	for in, want := range map[string]string{
		"..":             "attachment",
		"...png":         "png",
		"nul.txt":        "_nul.txt",
		"report. ":       "report",
		"a/b\\c.txt":     "a_b_c.txt",
		"tab\there.txt":  "tab_here.txt",
		"ok name (1).md": "ok name (1).md",
	} {
		if got := diskName(in); got != want {
			t.Errorf("diskName(%q) = %q, want %q", in, got, want)
		}
	}
	if got := diskName(strings.Repeat("é", 100) + ".png"); len(got) > maxFileName || !strings.HasSuffix(got, "é.png") {
		t.Errorf("long name cut to %q (%d bytes)", got, len(got))
	}
}
