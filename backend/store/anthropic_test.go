package store

import (
	"context"
	"strings"
	"testing"

	"airlock/backend/chat"
)

// What the Anthropic wire adds is kept: a provider's kind and thinking
// budget, an answer's signed thoughts and its cache reads and writes.
func TestAnthropicFieldsRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	p, err := s.SaveProvider(ctx, chat.Provider{Name: "Claude", BaseURL: "https://api.anthropic.com", Kind: "anthropic", ThinkingBudget: 2048})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.GetProvider(ctx, p.ID)
	if err != nil || got.Kind != chat.APIAnthropic || got.ThinkingBudget != 2048 {
		t.Fatalf("provider %+v %v", got, err)
	}
	if _, err := s.SaveProvider(ctx, chat.Provider{Name: "x", BaseURL: "https://x.example", ThinkingBudget: 100}); err == nil || !strings.Contains(err.Error(), "1024 to 128000") {
		t.Fatalf("a budget under the API's minimum: %v", err)
	}
	if o, err := s.SaveProvider(ctx, chat.Provider{Name: "o", BaseURL: "https://o.example/v1", Kind: "gopher"}); err != nil || o.Kind != chat.APIOpenAI {
		t.Fatalf("an unknown kind reads as OpenAI: %+v %v", o, err)
	}

	c, err := s.CreateChat(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Content: "hi", Status: chat.StatusStreaming})
	if err != nil {
		t.Fatal(err)
	}
	thoughts := []chat.Thought{{Text: "hmm", Signature: "sig=="}, {Redacted: "opaque"}}
	m.Thoughts = chat.EncodeThoughts(thoughts)
	m.Usage = chat.Usage{PromptTokens: 1200, CompletionTokens: 5, TotalTokens: 1205, CacheReadTokens: 1000, CacheWriteTokens: 150}
	m.Status = chat.StatusComplete
	if err := s.UpdateMessage(ctx, m); err != nil {
		t.Fatal(err)
	}
	back, err := s.GetMessage(ctx, m.ID)
	if err != nil || back.Usage != m.Usage || len(back.SignedThoughts()) != 2 || back.SignedThoughts()[0] != thoughts[0] || back.SignedThoughts()[1] != thoughts[1] {
		t.Fatalf("message %+v %v", back, err)
	}
}
