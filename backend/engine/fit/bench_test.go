package fit

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkFit2000 fits a 2,000-message tool chat into a 32k window with
// the real tokenizer, warm (the counts of earlier sends are cached): the
// cost added to every send.
func BenchmarkFit2000(b *testing.B) {
	msgs := history(rand.New(rand.NewPCG(1, 2)), 2000)
	tk := NewTokenizer()
	budget := Budget{Window: 32768, Reserve: 4096, Tools: 1500}
	if _, _, err := Fit(msgs, budget, tk); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := Fit(msgs, budget, tk); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFit2000Cold is the same fit with nothing cached: the first send
// after start-up (the vocabulary already loaded).
func BenchmarkFit2000Cold(b *testing.B) {
	msgs := history(rand.New(rand.NewPCG(1, 2)), 2000)
	budget := Budget{Window: 32768, Reserve: 4096, Tools: 1500}
	NewTokenizer().Count("warm the vocabulary")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := Fit(msgs, budget, NewTokenizer()); err != nil {
			b.Fatal(err)
		}
	}
}
