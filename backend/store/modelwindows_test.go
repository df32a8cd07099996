package store

import (
	"context"
	"errors"
	"testing"

	"airlock/backend/chat"
)

func TestModelWindows(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.GetModelWindow(ctx, "ollama", "qwen3")
	if n, src := m.Effective(); err != nil || n != 0 || src != "" || m.DiscoveredAt != 0 {
		t.Fatalf("a model never seen: %+v %v", m, err)
	}
	found := chat.Window{Tokens: 4096, ModelMax: 40960, Loaded: 4096, Source: "server:ollama", Note: "Ollama runs it with 4096 tokens."}
	if m, err = s.RecordModelWindow(ctx, "ollama", "qwen3", found, false); err != nil || m.Discovered != found || m.DiscoveredAt == 0 {
		t.Fatalf("recorded: %+v %v", m, err)
	}
	if n, src := m.Effective(); n != 4096 || src != "server:ollama" {
		t.Fatalf("effective after discovery: %d %s", n, src)
	}
	// An overflow error's own number wins over a larger discovered window...
	m, _ = s.RecordModelWindow(ctx, "vllm", "llama", chat.Window{Tokens: 32768, Source: "table"}, false)
	if m, err = s.LearnModelWindow(ctx, "vllm", "llama", 8192, "This model's maximum context length is 8192 tokens."); err != nil {
		t.Fatal(err)
	}
	if n, src := m.Effective(); n != 8192 || src != chat.WindowFromOverflow || m.LearnedReason == "" {
		t.Fatalf("learned: %d %s %+v", n, src, m)
	}
	// ...survives a discovery that does not forget, and goes with one that does.
	if m, _ = s.RecordModelWindow(ctx, "vllm", "llama", chat.Window{Tokens: 32768, Source: "table"}, false); m.Learned != 8192 {
		t.Fatalf("a plain discovery dropped what was learned: %+v", m)
	}
	if m, _ = s.RecordModelWindow(ctx, "vllm", "llama", chat.Window{Tokens: 16384, Source: "server:vllm"}, true); m.Learned != 0 || m.LearnedReason != "" {
		t.Fatalf("forget kept what was learned: %+v", m)
	}
	// The user's window wins; 0 clears it.
	if m, err = s.SetModelWindowLimits(ctx, "vllm", "llama", 12000, 2000); err != nil || m.MaxOutput() != 2000 {
		t.Fatalf("set: %+v %v", m, err)
	}
	if n, src := m.Effective(); n != 12000 || src != chat.WindowFromUser {
		t.Fatalf("user window: %d %s", n, src)
	}
	for _, bad := range [][2]int{{100, 0}, {8192, 8192}, {0, -1}, {chat.MaxWindow + 1, 0}} {
		if _, err := s.SetModelWindowLimits(ctx, "vllm", "llama", bad[0], bad[1]); !errors.Is(err, chat.ErrInvalid) {
			t.Fatalf("window %d, output %d accepted: %v", bad[0], bad[1], err)
		}
	}
	if _, err := s.LearnModelWindow(ctx, "vllm", "llama", 12, "x"); !errors.Is(err, chat.ErrInvalid) {
		t.Fatalf("a 12-token window learned: %v", err)
	}
	if _, err := s.RecordModelWindow(ctx, "", "llama", found, false); !errors.Is(err, chat.ErrInvalid) {
		t.Fatalf("no provider: %v", err)
	}
	s.Close()

	// Everything survives a restart.
	s, err = OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	m, _ = s.GetModelWindow(ctx, "vllm", "llama")
	if m.UserWindow != 12000 || m.UserMaxOutput != 2000 || m.Discovered.Tokens != 16384 || m.Discovered.Source != "server:vllm" {
		t.Fatalf("after restart: %+v", m)
	}
	if m, _ = s.SetModelWindowLimits(ctx, "vllm", "llama", 0, 0); m.UserWindow != 0 {
		t.Fatalf("clear: %+v", m)
	}
	if n, src := m.Effective(); n != 16384 || src != "server:vllm" {
		t.Fatalf("after clearing the user's window: %d %s", n, src)
	}
	list, _ := s.ListModelWindows(ctx)
	if len(list) != 2 || list[0].ProviderID != "ollama" || list[0].Discovered.Note == "" {
		t.Fatalf("list: %+v", list)
	}
}
