package facade

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"airlock/backend/chat"
	"airlock/backend/llm"
)

// envKind reads AIRLOCK_API_KIND (openai or anthropic; empty is openai) into
// the environment provider's kind and the name Settings shows for it. A
// value it does not know is said in the name rather than guessed at.
func envKind(v string) (kind, name string) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", chat.APIOpenAI:
		return chat.APIOpenAI, "Environment (AIRLOCK_BASE_URL)"
	case chat.APIAnthropic:
		return chat.APIAnthropic, "Environment (AIRLOCK_BASE_URL, Anthropic Messages)"
	}
	return chat.APIOpenAI, fmt.Sprintf("Environment (AIRLOCK_BASE_URL; AIRLOCK_API_KIND=%q is neither openai nor anthropic, so OpenAI-compatible)", clipName(v))
}

func clipName(s string) string {
	if len(s) > 20 {
		return s[:20] + "…"
	}
	return s
}

// testWithoutList tests an Anthropic-compatible endpoint that has no model
// list (several answer /v1/models with 404) by asking the chosen model for
// a one-word answer; its error, if it fails, says more than the list's.
// Where that does not apply, the list's error stands.
func (a *App) testWithoutList(p chat.Provider, listErr error) (string, error) {
	if p.APIKind() != chat.APIAnthropic || strings.TrimSpace(p.Model) == "" || !isCode(listErr, string(llm.KindNotFound)) {
		return "", listErr
	}
	ctx, cancel := context.WithTimeout(a.ctx, 30*time.Second)
	defer cancel()
	_, err := a.client(a.resolve(p)).Stream(ctx, llm.Request{MaxTokens: 16,
		Messages: []llm.Message{{Role: chat.RoleUser, Content: "Reply with the word OK."}}}, func(llm.Delta) {})
	if err != nil {
		return "", toAPI(err)
	}
	return fmt.Sprintf("Connected: %s answered. The server does not list its models, so type the model's name.", p.Model), nil
}

// isCode says err, as the UI sees it, has this code.
func isCode(err error, code string) bool {
	var e apiError
	if !errors.As(err, &e) {
		e, _ = toAPI(err).(apiError)
	}
	return e.Code == code
}
