package fit

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"airlock/backend/llm"
)

// quarter counts a token per four bytes, as the scripted test servers do.
type quarter struct{}

func (quarter) Count(s string) int { return (len(s) + 3) / 4 }

// history generates a conversation: a system prompt, user turns, and tool
// exchanges, native or written as text, with results of any size. The
// user's latest message is pinned, as the engine pins it.
func history(r *rand.Rand, n int) []Message {
	msgs := []Message{{Message: llm.Message{Role: "system", Content: text(r, 400+r.IntN(8000))}, ID: "sys"}}
	id := 0
	next := func() string { id++; return fmt.Sprintf("m%d", id) }
	lastUser := -1
	for len(msgs) < n {
		switch r.IntN(5) {
		case 0:
			lastUser = len(msgs)
			msgs = append(msgs, Message{Message: llm.Message{Role: "user", Content: text(r, 10+r.IntN(2000))}, ID: next()})
		case 1, 2: // native exchange
			aid := next()
			k := 1 + r.IntN(3)
			a := Message{Message: llm.Message{Role: "assistant", Content: text(r, r.IntN(300))}, ID: aid}
			var tools []Message
			for j := 0; j < k; j++ {
				cid := fmt.Sprintf("%s_c%d", aid, j)
				args := `{"path":"x"}`
				if r.IntN(4) == 0 {
					args = `{"text":"` + text(r, r.IntN(30000)) + `"}`
				}
				a.ToolCalls = append(a.ToolCalls, llm.ToolCall{ID: cid, Name: "read_file", Arguments: args})
				size := r.IntN(32000)
				tools = append(tools, Message{Message: llm.Message{Role: llm.RoleTool, ToolCallID: cid, Content: text(r, size)},
					ID: aid, Results: []Result{{Tool: "read_file", Chars: size}}})
			}
			msgs = append(append(msgs, a), tools...)
		case 3: // text exchange
			msgs = append(msgs, Message{Message: llm.Message{Role: "assistant", Content: `{"tool":"list_files"}` + text(r, r.IntN(500))}, ID: next()})
			size := r.IntN(32000)
			msgs = append(msgs, Message{Message: llm.Message{Role: "user", Content: text(r, size)}, ID: next(),
				Results: []Result{{Tool: "list_files", Chars: size}}})
		default:
			msgs = append(msgs, Message{Message: llm.Message{Role: "assistant", Content: text(r, 10+r.IntN(3000))}, ID: next()})
		}
	}
	if lastUser > 0 {
		msgs[lastUser].Pinned = true
	}
	return msgs
}

// corpus is text like a chat's: prose, code and listings.
var corpus = strings.Repeat(`The function reads the file and returns its lines; errors are wrapped with the path.
func (s *Store) ListMessages(ctx context.Context, chatID string) ([]chat.Message, error) {
	msgs, err := s.listPath(ctx, chatID) // 10,000 messages in ~55 ms
drwxr-xr-x  2 root root  4096 Nov 28 15:51 assets
`, 200)

// text is n bytes of the corpus from a random place.
func text(r *rand.Rand, n int) string {
	var b strings.Builder
	at := r.IntN(len(corpus))
	for b.Len() < n {
		k := min(n-b.Len(), len(corpus)-at)
		b.WriteString(corpus[at : at+k])
		at = 0
	}
	return b.String()
}

func TestFitProperties(t *testing.T) {
	for seed := uint64(0); seed < 400; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		msgs := history(r, 2+r.IntN(120))
		orig := clone(msgs)
		window := []int{4096, 8192, 16384, 32768, 131072}[r.IntN(5)]
		b := Budget{Window: window, Reserve: window / 8, Tools: r.IntN(1500)}
		got, rep, err := Fit(msgs, b, quarter{})
		name := fmt.Sprintf("seed %d (window %d, %d messages)", seed, window, len(msgs))
		if !reflect.DeepEqual(msgs, orig) {
			t.Fatalf("%s: Fit changed its input", name)
		}
		// What must go whole (the system prompt, pinned messages) and the
		// least the last exchange can shrink to (its texts cut to a mark,
		// its long arguments to a stub), and the note of what is left out.
		pinned := b.Tools + Tokens(llm.Message{Content: Omitted(1 << 30)}, quarter{}) + 2
		units := split(msgs)
		last := units[len(units)-1]
		for i, m := range msgs {
			switch {
			case m.Role == "system" || m.Pinned:
				pinned += Tokens(m.Message, quarter{})
			case i >= last.from:
				least := m.Message
				if least.Content != "" {
					least.Content = strings.TrimSpace(cutMark(len(least.Content)))
				}
				least.ToolCalls = nil
				for _, tc := range m.ToolCalls {
					if len(tc.Arguments) > bigArguments {
						tc.Arguments = stubArguments(tc)
					}
					least.ToolCalls = append(least.ToolCalls, tc)
				}
				pinned += Tokens(least, quarter{})
			}
		}
		if err != nil {
			if pinned <= rep.Limit {
				t.Fatalf("%s: %v although what is pinned (%d tokens) fits in %d", name, err, pinned, rep.Limit)
			}
			continue
		}
		// Never over the window.
		sum := b.Tools
		for _, m := range got {
			sum += Tokens(m.Message, quarter{})
		}
		if sum > rep.Limit || sum != rep.Tokens {
			t.Fatalf("%s: %d tokens (report %d) over the limit %d", name, sum, rep.Tokens, rep.Limit)
		}
		// The system prompt stays, first and whole.
		if got[0].Role != "system" || got[0].Content != msgs[0].Content {
			t.Fatalf("%s: the system prompt was not kept", name)
		}
		// Pinned messages stay (maybe after the note of what is left out).
		for _, m := range msgs {
			if m.Pinned && !containsPinned(got, m, false) {
				t.Fatalf("%s: pinned message %s was left out", name, m.ID)
			}
		}
		// The last message is kept.
		if last := got[len(got)-1]; last.ID != msgs[len(msgs)-1].ID || last.Role != msgs[len(msgs)-1].Role {
			t.Fatalf("%s: the last message was left out", name)
		}
		checkPairs(t, name, got)
		checkOrder(t, name, msgs, got)
		// Deterministic.
		again, _, _ := Fit(msgs, b, quarter{})
		if !reflect.DeepEqual(got, again) {
			t.Fatalf("%s: two fits differ", name)
		}
	}
}

// TestRecentKept: when the recent exchanges fit, they go as they are,
// and only older results were shortened.
func TestRecentKept(t *testing.T) {
	for seed := uint64(0); seed < 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 11))
		msgs := history(r, 10+r.IntN(80))
		b := Budget{Window: 32768, Reserve: 2048, Recent: 2}
		units := split(msgs)
		cost := make([]int, len(msgs))
		for i, m := range msgs {
			cost[i] = Tokens(m.Message, quarter{})
		}
		first := len(units) - b.Recent
		tailCost := 0
		for i := units[max(first, 0)].from; i < len(msgs); i++ {
			tailCost += cost[i]
		}
		if first < 1 || tailCost > (b.Window-b.Reserve-pinnedCost(units, cost))/2 {
			continue // the recent exchanges are too large to be protected whole
		}
		need := Tokens(llm.Message{Content: Omitted(1 << 30)}, quarter{}) + 2
		for _, u := range units {
			for i := u.from; i < u.to; i++ {
				if u.pinned || units[first].from <= i {
					need += Tokens(msgs[i].Message, quarter{})
				}
			}
		}
		if need > b.Window-b.Reserve {
			continue
		}
		got, _, err := Fit(msgs, b, quarter{})
		if err != nil {
			t.Fatal(err)
		}
		tail := msgs[units[first].from:]
		if len(got) < len(tail) || !reflect.DeepEqual(got[len(got)-len(tail):], tail) {
			t.Fatalf("seed %d: the last %d exchanges were changed", seed, b.Recent)
		}
	}
}

// containsPinned: the pinned message is there, whole (maybe beside the note
// of what was left out) unless the fit had to cut.
func containsPinned(got []Message, m Message, cut bool) bool {
	for _, g := range got {
		if g.ID == m.ID && g.Role == m.Role && (cut || strings.Contains(g.Content, m.Content)) {
			return true
		}
	}
	return false
}

// checkPairs: every native call is answered by the tool messages right
// after it, and every tool message answers the call before it.
func checkPairs(t *testing.T, name string, got []Message) {
	t.Helper()
	for i := 0; i < len(got); i++ {
		m := got[i]
		if m.Role == llm.RoleTool {
			t.Fatalf("%s: tool message %d answers no call", name, i)
		}
		for k, tc := range m.ToolCalls {
			if i+1+k >= len(got) || got[i+1+k].Role != llm.RoleTool || got[i+1+k].ToolCallID != tc.ID {
				t.Fatalf("%s: call %s of message %d has no tool message after it", name, tc.ID, i)
			}
		}
		i += len(m.ToolCalls)
	}
}

// checkOrder: the messages kept are in their order, none invented but the
// note of what was left out.
func checkOrder(t *testing.T, name string, msgs, got []Message) {
	t.Helper()
	j := 0
	for _, g := range got {
		if g.ID == "" && strings.HasPrefix(g.Content, "[") && strings.Contains(g.Content, "earlier messages") {
			continue
		}
		for j < len(msgs) && !(msgs[j].ID == g.ID && msgs[j].Role == g.Role && msgs[j].ToolCallID == g.ToolCallID) {
			j++
		}
		if j == len(msgs) {
			t.Fatalf("%s: message %s (%s) is out of order or invented", name, g.ID, g.Role)
		}
		j++
	}
}

func clone(msgs []Message) []Message {
	out := make([]Message, len(msgs))
	for i, m := range msgs {
		out[i] = m
		out[i].ToolCalls = append([]llm.ToolCall(nil), m.ToolCalls...)
		out[i].Results = append([]Result(nil), m.Results...)
	}
	return out
}

func TestFitsAsIs(t *testing.T) {
	msgs := []Message{{Message: llm.Message{Role: "system", Content: "be brief"}}, {Message: llm.Message{Role: "user", Content: "hi"}}}
	got, rep, err := Fit(msgs, Budget{Window: 8192, Reserve: 1024}, quarter{})
	if err != nil || &got[0] != &msgs[0] || rep.Elided+rep.Dropped+rep.Cut != 0 {
		t.Fatalf("a small chat was changed: %v %+v", err, rep)
	}
}

// TestElidesOldResultsFirst: the example of the issue: a 23 KB result in
// an 8k window is replaced by a stub that says what it was.
func TestElidesOldResultsFirst(t *testing.T) {
	big := strings.Repeat("x", 23104)
	msgs := []Message{
		{Message: llm.Message{Role: "system", Content: strings.Repeat("s", 10000)}},
		{Message: llm.Message{Role: "user", Content: "read it"}, ID: "u1", Pinned: true},
		{Message: llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"a"}`}}}, ID: "a1"},
		{Message: llm.Message{Role: llm.RoleTool, ToolCallID: "c1", Content: big}, ID: "a1", Results: []Result{{"read_file", len(big)}}},
		{Message: llm.Message{Role: "assistant", Content: "done"}, ID: "a2"},
		{Message: llm.Message{Role: "user", Content: "next"}, ID: "u2"},
	}
	msgs[1].Pinned = false
	msgs[5].Pinned = true
	got, rep, err := Fit(msgs, Budget{Window: 8192, Reserve: 1024, Recent: 2}, quarter{})
	if err != nil {
		t.Fatal(err)
	}
	want := "[Result of read_file elided to fit the context window: 23,104 characters. Call the tool again if you need it.]"
	if got[3].Content != want || rep.Elided != 1 || rep.Dropped != 0 {
		t.Fatalf("got %q, report %+v", got[3].Content, rep)
	}
	if rep.Parts.Instructions != Tokens(msgs[0].Message, quarter{}) || rep.Parts.Results == 0 || rep.Parts.History == 0 {
		t.Fatalf("parts %+v", rep.Parts)
	}
}

// TestCutsTheLastResult: a latest result larger than the window is cut in
// the middle rather than sent to be refused.
func TestCutsTheLastResult(t *testing.T) {
	big := "HEAD" + strings.Repeat("x", 40000) + "TAIL"
	msgs := []Message{
		{Message: llm.Message{Role: "system", Content: "tools"}},
		{Message: llm.Message{Role: "user", Content: "go"}, Pinned: true},
		{Message: llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{}`}}}, ID: "a1"},
		{Message: llm.Message{Role: llm.RoleTool, ToolCallID: "c1", Content: big}, ID: "a1", Results: []Result{{"read_file", len(big)}}},
	}
	got, rep, err := Fit(msgs, Budget{Window: 4096, Reserve: 512}, quarter{})
	if err != nil {
		t.Fatal(err)
	}
	c := got[3].Content
	if rep.Cut != 1 || !strings.HasPrefix(c, "HEAD") || !strings.HasSuffix(c, "TAIL") || !strings.Contains(c, "characters cut here") {
		t.Fatalf("report %+v, content %q…", rep, c[:min(len(c), 80)])
	}
}

func TestTooSmall(t *testing.T) {
	msgs := []Message{{Message: llm.Message{Role: "system", Content: strings.Repeat("s", 40000)}}, {Message: llm.Message{Role: "user", Content: "hi"}, Pinned: true}}
	if _, _, err := Fit(msgs, Budget{Window: 4096, Reserve: 512}, quarter{}); err == nil {
		t.Fatal("a system prompt larger than the window was accepted")
	}
}

func TestTokenizer(t *testing.T) {
	tk := NewTokenizer()
	if n := tk.Count("hello world"); n != 2 {
		t.Fatalf("hello world is %d tokens", n)
	}
	text := strings.Repeat("func main() { fmt.Println(\"hi\") }\n", 1000)
	n := tk.Count(text)
	if n < len(text)/8 || n > len(text)/2 {
		t.Fatalf("%d bytes counted as %d tokens", len(text), n)
	}
	if tk.Count(text) != n {
		t.Fatal("the cached count differs")
	}
	if c := (Calibrated{Counter: tk, Ratio: 1.5}).Count(text); c != int(float64(n)*1.5+0.999) {
		t.Fatalf("calibrated %d from %d", c, n)
	}
	huge := strings.Repeat("word ", MaxExact/2)
	if h := tk.Count(huge); h < MaxExact/10 {
		t.Fatalf("a %d-byte text counted as %d", len(huge), h)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 23104: "23,104", 1234567: "1,234,567"} {
		if got := Thousands(n); got != want {
			t.Errorf("%d: %s", n, got)
		}
	}
}
