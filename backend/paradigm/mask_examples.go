package paradigm

import "strings"

// Example heuristics. Models often show a call before (or instead of)
// making one: "For example: <tool_call>…", "In this format a call looks
// like:", "I won't run <tool_call>…". A block is not a call when the prose
// right next to it says so:
//
//   - before: the text on the opener's line, or else the previous non-blank
//     line (one blank line may sit between), or a Markdown heading at most
//     two lines above that, contains a cue and no sentence
//     ends after the cue — so "That was an example. Now the real call:" is
//     not a cue. Cues: an example ("example", "e.g.", "for instance",
//     "sample", "illustration", "hypothetical", 例如, 比如, 示例, 举例, 例子),
//     a description of the format ("looks like", "syntax", "format",
//     "template", 格式), a quoted result ("returned:", "response:"), the
//     block handed to the user to do themselves ("here's how you can do
//     it", "you could run"; not "so you can see"); and,
//     on the opener's own line only, a refusal ("won't run", "can't call",
//     不能调用, …);
//   - after: the rest of the closing line or the next line says "just an
//     example", "only an example", "example only", "for illustration",
//     "hypothetical", 仅为示例, 只是示例, 只是一个示例.
//
// Cue words count only as words of the prose: not inside "counterexample"
// or a name like example.com. Everything else a model writes in a call
// syntax is taken as meant.

var beforeCues = append([]string{"example", "e.g.", "for instance", "sample", "illustrat", "hypothetical",
	"looks like", "look like", "would look", "syntax", "format", "template", "is written", "are written", "how to write", "how to call",
	"returned:", "response:", "responded with",
	"例如", "比如", "示例", "举例", "例子", "格式", "形如"}, userCues...)

// userCues: the block is handed to the person to do themselves ("Here's
// how you can do it:", "You could run:"), so it is shown, not made. A model
// making the call speaks of itself ("Let me", "I'll"). After "so", "that",
// "once", … the phrase says what the person gets from a call the model
// makes ("so you can see the files:"), and is not a cue.
var userCues = func() []string {
	var out []string
	for _, modal := range []string{"can", "could", "would", "'d", "might", "may", "should"} {
		sep := " "
		if modal[0] == '\'' {
			sep = ""
		}
		out = append(out, "how you"+sep+modal)
		for _, verb := range []string{"use", "run", "call", "do", "try", "invoke", "execute", "write", "send", "make", "issue", "type", "paste"} {
			out = append(out, "you"+sep+modal+" "+verb)
		}
	}
	return out
}()

var notUserCue = []string{"so", "that", "once", "when", "if", "after", "until", "then", "where"}

// refusalCues: a call named in a refusal, on the same line.
var refusalCues = func() []string {
	var out []string
	for _, neg := range []string{"won't", "will not", "can't", "cannot", "can not", "not able to", "unable to", "refuse to", "shouldn't", "should not", "must not", "not going to"} {
		for _, verb := range []string{"run", "call", "execute", "invoke", "use", "make", "perform"} {
			out = append(out, neg+" "+verb)
		}
	}
	return append(out, "不能调用", "无法调用", "不会调用", "不能执行", "无法执行", "不会执行", "拒绝")
}()

var afterCues = []string{"just an example", "only an example", "example only", "is an example", "for illustration", "illustrative", "hypothetical", "not a real call", "仅为示例", "只是示例", "只是一个示例", "只是个示例"}

var afterHints = []string{"xampl", "llustr", "ypothetic", "real call", "示例"}

const cueWindow = 300

func (s *scanner) exampleBefore(j int) bool {
	t := s.text
	lo := max(0, j-cueWindow)
	seg := t[lo:j]
	// The opener's own line.
	nl := strings.LastIndexByte(seg, '\n')
	line := strings.TrimSpace(seg[nl+1:])
	if line != "" {
		return hasCue(line, beforeCues) || hasCue(line, refusalCues)
	}
	if nl < 0 {
		return false
	}
	// The previous non-blank line (one blank line may sit between); then,
	// two lines further up at most, a Markdown heading ("## Call format").
	seg = seg[:nl]
	for lines, blanks := 0, 0; lines < 3 && blanks <= 1; {
		nl = strings.LastIndexByte(seg, '\n')
		line = strings.TrimSpace(seg[nl+1:])
		switch {
		case line == "":
			if lines == 0 {
				blanks++
			}
		case lines == 0 && hasCue(line, beforeCues):
			return true
		case lines > 0 && strings.HasPrefix(line, "#") && hasCue(line, beforeCues):
			return true
		default:
			lines++
		}
		if nl < 0 {
			return false
		}
		seg = seg[:nl]
	}
	return false
}

// cueHints are fragments, in either case, of which every cue holds one:
// a line with none of them is checked no further.
var cueHints = []string{"xampl", "e.g", "E.g", "nstanc", "ampl", "llustr", "ypothet", "ook", "ould", "yntax", "ormat", "emplat",
	"ritten", "ow to", "eturned", "espons", "n't", "n’t", "not", "nable", "efuse",
	"例", "比如", "示例", "格式", "形如", "不", "拒绝", "you", "You"}

func hasCue(line string, cues []string) bool {
	if len(line) > 200 {
		line = line[len(line)-200:]
	}
	if !mayHaveCue(line, cueHints) {
		return false
	}
	line = strings.ReplaceAll(line, "’", "'")
	low := asciiLower(line)
	cueEnd := -1
	for _, c := range cues {
		for from := 0; from < len(low); {
			k := strings.Index(low[from:], c)
			if k < 0 {
				break
			}
			k += from
			if e, ok := cueWord(low, k, c); ok && e > cueEnd && !(c[0] == 'y' && afterWord(low[:k], notUserCue)) {
				cueEnd = e
			}
			from = k + len(c)
		}
	}
	if cueEnd < 0 {
		return false
	}
	// A sentence that ends after the cue, followed by more words, means the
	// cue belonged to an earlier sentence.
	rest := low[cueEnd:]
	for _, end := range []string{". ", "! ", "? ", "。", "！", "？"} {
		if k := strings.Index(rest, end); k >= 0 && strings.TrimSpace(rest[k+len(end):]) != "" {
			return false
		}
	}
	return true
}

// cueWord reports whether the cue c at k in low stands as a word of the
// prose (not inside "counterexample", "resample" or a name such as
// example.com or /examples/), and where it ends. ASCII cues are words: a
// trailing "s" is allowed, and stems ("illustrat") take any ending. CJK cues
// stand anywhere.
func cueWord(low string, k int, c string) (int, bool) {
	if c[0] >= 0x80 {
		return k + len(c), true
	}
	e := k + len(c)
	if c == "illustrat" || c == "hypothetical" {
		for e < len(low) && isWordByte(low[e]) {
			e++
		}
	} else if e < len(low) && low[e] == 's' {
		e++
	}
	if k > 0 {
		switch b := low[k-1]; {
		case isWordByte(b), b == '.', b == '/', b == '@', b == '-', b == '_', b == ':':
			return 0, false
		}
	}
	if e < len(low) {
		b := low[e]
		if isWordByte(b) || b == '/' || b == '@' || b == '_' || b == '-' {
			return 0, false
		}
		if b == '.' && e+1 < len(low) && isWordByte(low[e+1]) && !strings.HasSuffix(c, ".") {
			return 0, false // example.com
		}
	}
	return e, true
}

// afterWord says the text before ends with one of words as a word.
func afterWord(before string, words []string) bool {
	before = strings.TrimRight(before, " ,")
	for _, w := range words {
		if strings.HasSuffix(before, w) && (len(before) == len(w) || !isWordByte(before[len(before)-len(w)-1])) {
			return true
		}
	}
	return false
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b >= 'A' && b <= 'Z'
}

func (s *scanner) exampleAfter(end int) bool {
	t := s.text
	hi := min(len(t), end+200)
	seg := t[end:hi]
	// The rest of this line and the next one.
	if k := strings.IndexByte(seg, '\n'); k >= 0 {
		if k2 := strings.IndexByte(seg[k+1:], '\n'); k2 >= 0 {
			seg = seg[:k+1+k2]
		}
	}
	if !mayHaveCue(seg, afterHints) {
		return false
	}
	low := asciiLower(seg)
	for _, c := range afterCues {
		if strings.Contains(low, c) {
			return true
		}
	}
	return false
}

func mayHaveCue(s string, hints []string) bool {
	for _, h := range hints {
		if strings.Contains(s, h) {
			return true
		}
	}
	return false
}
