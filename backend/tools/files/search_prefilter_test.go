package files

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// The whole-file pre-filters (multi-line, and ASCII-lowered for
// ignore_case) may only skip files that have no matching line: the tool's
// results must equal a plain per-line scan.
func TestSearchPrefilterNeverLosesMatches(t *testing.T) {
	texts := []string{
		"alpha\nBeta end\ngamma\n",
		"the \u212aelvin sign and \u017fong s\n",
		"ÉCOLE école Ecole\n",
		"crlf line\r\nsecond END\r\n",
		"needle_7 NEEDLE_7 Needle_77\n",
		"x\n\ny\n",
		"tab\there\n  indented\n",
		"k K s S \u212a \u017f\n",
	}
	patterns := []string{
		"beta", "^beta", "end$", `\bneedle_7\b`, "école", "É", "kelvin", "long", "k", "s", "^$", "e.d",
		"[a-c]+", "[^a-z ]", `\w+_\d+`, "ya", "x|y", `gamma\n`, "(?i)ALPHA", `\Aalpha`, "END", "eco",
	}
	for _, text := range texts {
		fsys := afero.NewMemMapFs()
		put(t, fsys, "f.txt", text)
		for _, pat := range patterns {
			for _, ic := range []bool{false, true} {
				checkAgainstLineScan(t, fsys, text, pat, ic)
			}
		}
	}
	// Random texts over a small alphabet with case and fold traps.
	rng := rand.New(rand.NewPCG(7, 9))
	alphabet := []string{"a", "A", "b", "B", "k", "K", "s", "S", "\u212a", "\u017f", "é", "É", " ", "\n", "_", "1"}
	for range 300 {
		var sb strings.Builder
		for range 5 + rng.IntN(40) {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		text := sb.String()
		fsys := afero.NewMemMapFs()
		put(t, fsys, "f.txt", text)
		for _, pat := range []string{"ak", "ks", "sb", "éa", "^k", "s$", `\bab`, "k+s", "[ab]k"} {
			checkAgainstLineScan(t, fsys, text, pat, true)
			checkAgainstLineScan(t, fsys, text, pat, false)
		}
	}
}

func checkAgainstLineScan(t *testing.T, fsys afero.Fs, text, pat string, ignoreCase bool) {
	t.Helper()
	flags := ""
	if ignoreCase {
		flags = "(?i)"
	}
	re := regexp.MustCompile(flags + pat)
	var want []string
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if re.MatchString(line) {
			want = append(want, fmt.Sprintf("f.txt:%d:", i+1))
		}
	}
	out := mustCall(t, fsys, "search_files", map[string]any{"pattern": pat, "ignore_case": ignoreCase})
	var got []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "f.txt:") {
			got = append(got, l[:strings.Index(l[6:], ":")+7])
		}
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("pattern %q ignore_case=%v on %q: got %v want %v", pat, ignoreCase, text, got, want)
	}
}

func TestLowerASCII(t *testing.T) {
	out, ok := lowerASCII(nil, []byte("ABC déF"))
	if string(out) != "abc déf" || !ok {
		t.Fatal(string(out))
	}
	if _, ok := lowerASCII(nil, []byte("\u212a")); ok {
		t.Fatal("the Kelvin sign folds to k")
	}
}
