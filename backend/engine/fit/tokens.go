package fit

import (
	"hash/maphash"
	"sync"

	"github.com/tiktoken-go/tokenizer/codec"
)

// Tokenizer counts tokens with OpenAI's cl100k_base vocabulary (the
// tiktoken-go/tokenizer codec, compiled in: no file or network). Other
// model families tokenize differently; the engine calibrates the counts per
// model by what the server reports (see Calibrated).
//
// The vocabulary is built on the first count, not at start-up: measured on
// the build machine, about 6–50 ms and 3 MB of heap (o200k_base took 6 MB
// and added 8 MB to the binary against cl100k's 5 MB). Counts are cached by
// text, so a long chat is tokenized once, not at every send.
type Tokenizer struct {
	mu    sync.Mutex
	seed  maphash.Seed
	cache map[uint64]int
}

// MaxCached is how many texts' counts a Tokenizer keeps; past it the cache
// starts again (a chat of that many messages still costs one pass a send).
const MaxCached = 50_000

// MaxExact is the longest text tokenized whole; a longer one is counted by
// its first MaxExact bytes and scaled, so no single text costs unbounded work.
const MaxExact = 4 << 10

// NewTokenizer makes a tokenizer; its vocabulary loads on the first count.
func NewTokenizer() *Tokenizer {
	return &Tokenizer{seed: maphash.MakeSeed(), cache: map[uint64]int{}}
}

// Count is the number of tokens of text.
func (t *Tokenizer) Count(text string) int {
	if text == "" {
		return 0
	}
	key := maphash.String(t.seed, text)
	t.mu.Lock()
	n, ok := t.cache[key]
	t.mu.Unlock()
	if ok {
		return n
	}
	sample := text
	if len(sample) > MaxExact {
		sample = sample[:MaxExact]
	}
	n = t.count(sample)
	if len(sample) < len(text) {
		n = int(float64(n) * float64(len(text)) / float64(len(sample)))
	}
	t.mu.Lock()
	if len(t.cache) >= MaxCached {
		clear(t.cache)
	}
	t.cache[key] = n
	t.mu.Unlock()
	return n
}

func (t *Tokenizer) count(s string) int {
	n, err := cl100k().Count(s)
	if err != nil {
		return len(s)/3 + 1 // a text the codec cannot read: a cautious guess
	}
	return n
}

// cl100k is the vocabulary, built on first use and shared.
var cl100k = sync.OnceValue(codec.NewCl100kBase)

// Calibrated scales a counter's counts by a ratio (what the server counted
// over what we counted), rounding up.
type Calibrated struct {
	Counter
	Ratio float64
}

// Count is the scaled count.
func (c Calibrated) Count(text string) int {
	n := c.Counter.Count(text)
	if c.Ratio <= 0 || n == 0 {
		return n
	}
	return int(float64(n)*c.Ratio + 0.999)
}
