package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	"airlock/backend/chat"
	"airlock/backend/engine/fit"
	"airlock/backend/llm"
)

// The context window: how large it is (WindowFor, else what an overflow
// error taught, else DefaultWindow), how a request is counted (a tokenizer
// calibrated per model by the prompt_tokens the server reports), and what
// happens when a server still says the request was too long (Overflow).

// Window is what the engine knows of a model's context window.
type Window struct {
	Tokens  int    `json:"tokens"`  // the whole window; 0 = unknown
	Reserve int    `json:"reserve"` // kept free for the answer; 0 = ReserveFor(Tokens)
	Source  string `json:"source"`  // where Tokens came from, in a few words
}

// WindowFor says how large a provider's model window is (Tokens 0 when it
// does not know). The app wires the discovery per server kind here.
type WindowFor func(ctx context.Context, p chat.Provider) Window

// Overflow recognises a server's "the request is too long" error and the
// window it names (0 when it names none).
type Overflow func(err error) (window int, ok bool)

// DefaultWindow is assumed when nothing else is known: small enough for
// the local servers' usual windows (Ollama runs at 4k–8k unless told
// otherwise) without starving a chat. AIRLOCK_CONTEXT_WINDOW overrides it.
const DefaultWindow = 8192

// Source words for a window.
const (
	SourceDefault  = "default"
	SourceEnv      = "AIRLOCK_CONTEXT_WINDOW"
	SourceOverflow = "the server's error"
)

// MinWindow is the smallest window taken from anywhere: a smaller one is a
// misreading.
const MinWindow = 512

// ReserveFor is what a window keeps free for the answer: an eighth, at
// least 256 and at most 8,192 tokens.
func ReserveFor(window int) int { return min(max(window/8, 256), 8192) }

// budget is how one request is sized.
type budget struct {
	Window
	counter fit.Counter // calibrated
	raw     fit.Counter // the tokenizer's own count
}

// windows is what the engine learns about windows and counts, per provider
// and model, while it runs.
type windows struct {
	mu      sync.Mutex
	learned map[string]int     // from overflow errors
	ratio   map[string]float64 // the server's count over ours
	tok     *fit.Tokenizer
}

func modelKey(p chat.Provider) string { return p.ID + "\x00" + p.Model }

// margin is how much larger than the tokenizer's count a request is taken
// to be before the server has reported a count for the model (another
// family's tokenizer may count a tenth or more above cl100k).
const margin = 1.15

// budgetFor is the window and counter for a provider's model.
func (e *Engine) budgetFor(ctx context.Context, p chat.Provider) budget {
	w := Window{}
	if e.windowFor != nil {
		w = e.windowFor(ctx, p)
	}
	e.win.mu.Lock()
	learned, ratio := e.win.learned[modelKey(p)], e.win.ratio[modelKey(p)]
	e.win.mu.Unlock()
	if learned >= MinWindow && (w.Tokens < MinWindow || learned < w.Tokens) {
		w = Window{Tokens: learned, Reserve: w.Reserve, Source: SourceOverflow}
	}
	if w.Tokens < MinWindow {
		w = Window{Tokens: DefaultWindow, Reserve: w.Reserve, Source: SourceDefault}
		if n, err := strconv.Atoi(strings.TrimSpace(os.Getenv("AIRLOCK_CONTEXT_WINDOW"))); err == nil && n >= MinWindow {
			w.Tokens, w.Source = n, SourceEnv
		}
	}
	if w.Reserve <= 0 || w.Reserve >= w.Tokens/2 {
		w.Reserve = ReserveFor(w.Tokens)
	}
	if ratio <= 0 {
		ratio = margin
	} else {
		ratio *= 1.03 // the count varies a little from request to request
	}
	return budget{Window: w, counter: fit.Calibrated{Counter: e.win.tok, Ratio: ratio}, raw: e.win.tok}
}

// fitted fits a request's messages to the plan's window.
func (p turnPlan) fitted(msgs []fit.Message, tools []llm.Tool) ([]fit.Message, fit.Report, error) {
	if p.window.counter == nil { // a plan made without a window (tests)
		return msgs, fit.Report{}, nil
	}
	return fit.Fit(msgs, fit.Budget{Window: p.window.Tokens, Reserve: p.window.Reserve, Tools: toolTokens(tools, p.window.counter)}, p.window.counter)
}

// toolTokens is what the native tool definitions cost.
func toolTokens(tools []llm.Tool, c fit.Counter) int {
	if len(tools) == 0 {
		return 0
	}
	b, _ := json.Marshal(tools)
	return c.Count(string(b)) + 8*len(tools)
}

// truncated says whether the server cut the conversation without a word
// (its reported prompt far below what was sent, just under a window), and
// tells the chat how to fix it. A cut report is not learned from.
func (e *Engine) truncated(chatID string, estimate int, w Window, u chat.Usage) bool {
	t, ok := llm.DetectTruncation(estimate, u.PromptTokens, w.Tokens)
	if !ok {
		// The window Airlock knows may be the model's, not the smaller one
		// the server runs it with: try the usual configured sizes.
		t, ok = llm.DetectTruncation(estimate, u.PromptTokens, 0)
	}
	if ok {
		e.notice(chatID, "context_truncated", t.Text)
	}
	return ok
}

// rawTokens is a request's size by the tokenizer's own count.
func rawTokens(req llm.Request, c fit.Counter) int {
	n := toolTokens(req.Tools, c)
	for _, m := range req.Messages {
		n += fit.Tokens(m, c)
	}
	return n
}

// calibrate learns how the server counts against the tokenizer from the
// prompt_tokens it reported for a request of known size. A count far below
// ours is not learned: the server may have cut the prompt without saying.
func (e *Engine) calibrate(p chat.Provider, ours int, u chat.Usage) {
	if u.PromptTokens <= 0 || ours < 256 {
		return
	}
	r := float64(u.PromptTokens) / float64(ours)
	if r < 0.5 || r > 3 {
		return
	}
	e.win.mu.Lock()
	defer e.win.mu.Unlock()
	if old := e.win.ratio[modelKey(p)]; old > 0 {
		r = (old + r) / 2
	}
	e.win.ratio[modelKey(p)] = r
}

// learnWindow remembers a window an overflow error named (or a smaller
// one), for this run and in the store with the model.
func (e *Engine) learnWindow(p chat.Provider, n int, reason string) {
	if n < MinWindow {
		return
	}
	e.win.mu.Lock()
	e.win.learned[modelKey(p)] = n
	e.win.mu.Unlock()
	_, _ = e.store.LearnModelWindow(context.Background(), p.ID, p.Model, n, reason)
}

// shrinkWindow is what a window becomes when the server refused a request
// as too long without naming a smaller window: the request's size as
// estimated, less a fifth, so the next try is clearly smaller.
func shrinkWindow(w Window, estimate int) int {
	n := min(w.Tokens, max(estimate, MinWindow))
	return max(n*4/5, MinWindow)
}

// DefaultOverflow recognises the overflow errors the llm package
// classifies (KindContextOverflow), with the window they state.
func DefaultOverflow(err error) (int, bool) {
	var le *llm.Error
	if !errors.As(err, &le) || le.Kind != llm.KindContextOverflow {
		return 0, false
	}
	return le.Overflow.Window, true
}

// tooSmall is the error of a request that does not fit even fitted: the
// instructions and the latest message alone are too large.
func tooSmall(rep fit.Report, b budget) error {
	return refuse("context_too_small", chat.ErrInvalid, txtTooSmall,
		"needed", fit.Thousands(rep.Tokens), "window", fit.Thousands(b.Tokens), "source", b.Source, "reserve", fit.Thousands(b.Reserve))
}

// overflowError is the error of an answer the server refused as too long
// after Airlock had fitted and retried it.
func overflowError(err error) error {
	return &chat.Error{Code: CodeOverflow, Err: err, Message: fmt.Sprintf("%s Airlock shortened the conversation and asked again, and the server still refused it. "+
		"Press Compact and retry to fold the older part of the chat into a summary, or set the model's window in Settings.", strings.TrimSpace(err.Error()))}
}

// CodeOverflow is the error code of an answer refused as too long.
const CodeOverflow = "context_overflow"
