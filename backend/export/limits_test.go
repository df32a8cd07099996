package export

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"airlock/backend/chat"
)

// airlockFile is a minimal Airlock export of one chat with the options
// and the extra chat fields given (JSON fragments).
func airlockFile(options, extra string) string {
	return `{"format":"airlock-export","version":1,"chats":[{"id":"c1","title":"t","options":` + options +
		`,"messages":[{"id":"m1","role":"user","content":"hi"}]` + extra + `}]}`
}

// A folder or overlay named in a file (at "/", or relative: resolved
// against wherever Airlock runs) never opens: the chat comes back with a
// scratch workspace, and the summary says so.
func TestImportedFolderWorkspacesComeBackAsScratch(t *testing.T) {
	for _, opt := range []string{
		`{"paradigm":"json","workspaceKind":"folder","workspaceDir":"/"}`,
		`{"paradigm":"json","workspaceKind":"overlay","workspaceDir":"/"}`,
		`{"paradigm":"json","workspaceKind":"folder","workspaceDir":"relative/dir"}`,
	} {
		b, _, err := Read(strings.NewReader(airlockFile(opt, "")))
		if err != nil {
			t.Fatal(err)
		}
		s := newStore(t)
		rep, err := Import(context.Background(), s, b)
		if err != nil {
			t.Fatal(err)
		}
		c, err := s.GetChat(context.Background(), "c1")
		if err != nil {
			t.Fatal(err)
		}
		if c.WorkspaceKind != "scratch" || c.WorkspaceDir != "" {
			t.Errorf("%s: imported as %s %q", opt, c.WorkspaceKind, c.WorkspaceDir)
		}
		if rep.FoldersReset != 1 || !strings.Contains(rep.String(), "choose the folder again") {
			t.Errorf("%s: not said: %q", opt, rep.String())
		}
	}
}

// Scratch paths take the same rule as every tool path, at import time.
func TestImportedScratchPathsAreCleaned(t *testing.T) {
	opt := `{"paradigm":"json","workspaceKind":"scratch"}`
	files := func(paths ...string) string {
		var fs []string
		for _, p := range paths {
			fs = append(fs, fmt.Sprintf(`{"path":%q,"content":"x"}`, p))
		}
		return `,"scratchFiles":[` + strings.Join(fs, ",") + `]`
	}
	for _, bad := range []string{"../etc/passwd", "/etc/hostname", "a/../../b", "a\nb", ".", "./a//b", "a/b"} {
		_, _, err := Read(strings.NewReader(airlockFile(opt, files(bad, "a/b"))))
		if bad == "a/b" || bad == "./a//b" { // cleans to a path that appears twice
			if err == nil || !strings.Contains(err.Error(), "appears twice") {
				t.Errorf("%q: %v", bad, err)
			}
			continue
		}
		if err == nil || !errors.Is(err, chat.ErrInvalid) || !strings.Contains(err.Error(), "scratchFiles[0].path") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	b, _, err := Read(strings.NewReader(airlockFile(opt, files("./notes//a.md"))))
	if err != nil {
		t.Fatal(err)
	}
	d, err := toStore(b.Chats[0])
	if err != nil || d.Scratch[0].Path != "notes/a.md" {
		t.Fatalf("stored path %q, %v", d.Scratch[0].Path, err)
	}
}

// Each cap refuses with an error naming the limit.
func TestImportCaps(t *testing.T) {
	opt := `{"paradigm":"json","workspaceKind":"scratch"}`
	big := strings.Repeat("x", MaxMessageBytes+1)
	manyFiles := make([]string, MaxScratchFiles+1)
	for i := range manyFiles {
		manyFiles[i] = fmt.Sprintf(`{"path":"f%d"}`, i)
	}
	for _, tc := range []struct{ name, file, want string }{
		{"title", strings.Replace(airlockFile(opt, ""), `"title":"t"`, `"title":"`+strings.Repeat("t", MaxTitleBytes+1)+`"`, 1),
			"chats[0].title: 1,001 bytes, over the 1,000-byte limit for a title"},
		{"message", strings.Replace(airlockFile(opt, ""), `"content":"hi"`, `"content":"`+big+`"`, 1),
			"chats[0].messages[0].content: 4,194,305 bytes, over the 4,194,304-byte limit for a message"},
		{"file", airlockFile(opt, `,"scratchFiles":[{"path":"a","content":"`+strings.Repeat("y", MaxScratchFileBytes+1)+`"}]`),
			"over the 16,777,216-byte limit for a workspace file"},
		{"files", airlockFile(opt, `,"scratchFiles":[`+strings.Join(manyFiles, ",")+`]`),
			"10,001 files, over the limit of 10,000 for a workspace"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Read(strings.NewReader(tc.file))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want %q", err, tc.want)
			}
		})
	}
}

// A file past MaxImportBytes is refused having read no more than that.
func TestImportRefusesAHugeFile(t *testing.T) {
	r := &countingReader{left: MaxImportBytes + 10<<20}
	_, _, err := Read(r)
	if err == nil || !strings.Contains(err.Error(), "larger than 134,217,728 bytes, the limit for an import") {
		t.Fatalf("error = %v", err)
	}
	if r.read > MaxImportBytes+1<<20 {
		t.Errorf("read %d bytes", r.read)
	}
}

type countingReader struct{ left, read int }

func (r *countingReader) Read(p []byte) (int, error) {
	if r.left == 0 {
		return 0, io.EOF
	}
	n := min(len(p), r.left)
	for i := range p[:n] {
		p[i] = ' '
	}
	r.left -= n
	r.read += n
	return n, nil
}

// gptThoughtsChain is a ChatGPT conversation: a question, n "thoughts"
// nodes of size bytes each in one chain, and the answer.
func gptThoughtsChain(n, size int) string {
	var b strings.Builder
	piece := strings.Repeat("r", size)
	b.WriteString(`[{"title":"long thoughts","conversation_id":"long","current_node":"a","mapping":{`)
	b.WriteString(`"u":{"id":"u","message":{"author":{"role":"user"},"create_time":1,"content":{"content_type":"text","parts":["why?"]}},"parent":null,"children":["t0"]},`)
	for i := range n {
		next := fmt.Sprintf("t%d", i+1)
		if i == n-1 {
			next = "a"
		}
		parent := "u"
		if i > 0 {
			parent = fmt.Sprintf("t%d", i-1)
		}
		fmt.Fprintf(&b, `"t%d":{"id":"t%d","message":{"author":{"role":"assistant"},"content":{"content_type":"thoughts","thoughts":[{"summary":"","content":"%d %s"}]}},"parent":%q,"children":[%q]},`,
			i, i, i, piece, parent, next)
	}
	fmt.Fprintf(&b, `"a":{"id":"a","message":{"author":{"role":"assistant"},"content":{"content_type":"text","parts":["because"]}},"parent":"t%d","children":[]}}}]`, n-1)
	return b.String()
}

// A long thoughts chain imports in memory linear in the file: the old
// recursive walk copied the growing reasoning into every frame (quadratic:
// 4.4 MB of thoughts cost 4 GB). The answer's reasoning is capped, with a
// line saying how much was left out.
func TestChatGPTLongThoughtsChainIsLinear(t *testing.T) {
	file := gptThoughtsChain(20_000, 500) // 10 MB of thoughts: 100 GB the old way
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b, _, err := Read(strings.NewReader(file))
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 40*uint64(len(file)) {
		t.Errorf("allocated %d MB for a %d MB file", alloc>>20, len(file)>>20)
	}
	msgs := b.Chats[0].Messages
	if len(msgs) != 2 || msgs[1].Content != "because" {
		t.Fatalf("messages: %d", len(msgs))
	}
	r := msgs[1].Reasoning
	if len(r) > MaxMessageBytes || !strings.Contains(r, "bytes of earlier reasoning left out") || !strings.HasSuffix(r, "19999 "+strings.Repeat("r", 500)) {
		t.Errorf("reasoning: %d bytes, starts %q", len(r), r[:min(len(r), 120)])
	}

	// A short chain is joined whole, oldest first.
	b, _, err = Read(strings.NewReader(gptThoughtsChain(3, 2)))
	if err != nil || b.Chats[0].Messages[1].Reasoning != "0 rr\n\n1 rr\n\n2 rr" {
		t.Fatalf("short chain: %q %v", b.Chats[0].Messages[1].Reasoning, err)
	}
}
