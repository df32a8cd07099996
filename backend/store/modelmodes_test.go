package store

import (
	"context"
	"errors"
	"testing"

	"airlock/backend/chat"
)

func TestModelModes(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	m, err := s.GetModelMode(ctx, "ollama", "gemma")
	if err != nil || m.Learned != "" || m.Effective() != chat.ToolModeNative {
		t.Fatalf("a model never seen: %+v %v", m, err)
	}
	m, err = s.LearnModelMode(ctx, "ollama", "gemma", chat.ToolModeText, "HTTP 400: does not support tools")
	if err != nil || m.Learned != chat.ToolModeText || m.LearnedAt == 0 || m.Effective() != chat.ToolModeText {
		t.Fatalf("learned: %+v %v", m, err)
	}
	if m, _ = s.SetModelModeOverride(ctx, "ollama", "gemma", chat.ToolModeNative, false); m.Effective() != chat.ToolModeNative || m.Learned != chat.ToolModeText {
		t.Fatalf("override: %+v", m)
	}
	if m, _ = s.SetModelModeOverride(ctx, "ollama", "gemma", "", true); m.Effective() != chat.ToolModeNative || m.Learned != "" || m.Reason != "" {
		t.Fatalf("forget: %+v", m)
	}
	if _, err := s.LearnModelMode(ctx, "p", "m", chat.ToolModeAuto, ""); !errors.Is(err, chat.ErrInvalid) {
		t.Fatalf("learning auto: %v", err)
	}
	list, _ := s.ListModelModes(ctx)
	if len(list) != 1 || list[0].Model != "gemma" {
		t.Fatalf("list: %+v", list)
	}
}
