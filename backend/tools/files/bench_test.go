package files

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/afero"

	"airlock/backend/tools"
)

const (
	benchFiles    = 10_000
	benchFileSize = 10_485 // × 10,000 ≈ 100 MiB
)

var (
	benchOnce  sync.Once
	benchFS    afero.Fs
	benchBytes int64
)

// benchCorpus builds 10,000 text files (100 folders × 100 files, ~100 MB)
// of code-like lines; one file in a thousand holds a NEEDLE line.
func benchCorpus(b *testing.B) (afero.Fs, int64) {
	benchOnce.Do(func() {
		words := strings.Fields("func return if else for range var const type struct interface map string int " +
			"error nil true false package import defer go select case switch default break continue value " +
			"result handler request response context buffer reader writer index count total name path")
		rng := rand.New(rand.NewPCG(1, 2))
		fsys := afero.NewMemMapFs()
		var total int64
		var sb strings.Builder
		for i := range benchFiles {
			sb.Reset()
			for sb.Len() < benchFileSize {
				n := 4 + rng.IntN(8)
				sb.WriteString(strings.Repeat("\t", rng.IntN(3)))
				for w := range n {
					if w > 0 {
						sb.WriteByte(' ')
					}
					sb.WriteString(words[rng.IntN(len(words))])
				}
				sb.WriteByte('\n')
			}
			if i%1000 == 7 {
				fmt.Fprintf(&sb, "// NEEDLE_%d found here\n", i)
			}
			content := sb.String()
			name := fmt.Sprintf("/pkg%02d/file%04d.go", i/100, i)
			if i%100 == 0 {
				fsys.MkdirAll(fmt.Sprintf("/pkg%02d", i/100), 0o755)
			}
			if err := afero.WriteFile(fsys, name, []byte(content), 0o644); err != nil {
				panic(err)
			}
			total += int64(len(content))
		}
		benchFS, benchBytes = fsys, total
	})
	return benchFS, benchBytes
}

func BenchmarkSearchFiles(b *testing.B) {
	fsys, total := benchCorpus(b)
	cases := []struct{ name, args, want string }{
		{"literal_rare", `{"pattern":"NEEDLE_\\d+"}`, "[10 matches in 10 files; searched 10,000 files]"},
		{"regexp_none", `{"pattern":"func\\s+[A-Z]\\w*Handler\\("}`, "No matches"},
		{"ignore_case_rare", `{"pattern":"needle_7\\b","ignore_case":true}`, "[1 match in 1 file"},
		{"glob_filter", `{"pattern":"NEEDLE","glob":"pkg0*/*.go"}`, "[1 match in 1 file"},
	}
	run := tool("search_files").Run
	env := tools.Env{FS: fsys}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			out, err := run(context.Background(), env, argsJSON(c.args))
			if err != nil || !strings.Contains(out.Text, c.want) {
				b.Fatalf("%v\n%s", err, out.Text[max(0, len(out.Text)-300):])
			}
			b.SetBytes(total)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := run(context.Background(), env, argsJSON(c.args)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkFindFiles(b *testing.B) {
	fsys, _ := benchCorpus(b)
	run := tool("find_files").Run
	env := tools.Env{FS: fsys}
	for b.Loop() {
		if _, err := run(context.Background(), env, argsJSON(`{"pattern":"**/file00*.go"}`)); err != nil {
			b.Fatal(err)
		}
	}
}
