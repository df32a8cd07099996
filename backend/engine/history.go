package engine

import (
	"context"
	"strings"

	"airlock/backend/chat"
)

// Versions: editing a user message or regenerating an answer adds a new
// version beside the old one (the store keeps the conversation as a tree);
// the old version, with its tool calls and decisions, stays reachable.

// EditAndResend adds the edited text as a new version of a user message and
// asks the model to answer it.
func (e *Engine) EditAndResend(ctx context.Context, messageID, text string) ([]chat.Message, error) {
	if strings.TrimSpace(text) == "" {
		return nil, refuse("empty_message", chat.ErrInvalid, txtEmptyMessage)
	}
	orig, err := e.store.GetMessage(ctx, messageID)
	if err != nil {
		return nil, err
	}
	if orig.Role != chat.RoleUser || orig.Kind != chat.KindText {
		return nil, refuse("not_editable", chat.ErrInvalid, txtNotEditable)
	}
	if why := e.busy(orig.ChatID); why != nil {
		return nil, why
	}
	if err := e.supersedeUndecided(ctx, orig.ChatID); err != nil {
		return nil, err
	}
	user, err := e.store.AddVersion(ctx, messageID, chat.Message{Role: chat.RoleUser, Kind: chat.KindText, Content: text, Status: chat.StatusComplete})
	if err != nil {
		return nil, err
	}
	if user, err = e.keepAttachments(ctx, orig, user); err != nil {
		return nil, err
	}
	asst, err := e.start(ctx, orig.ChatID)
	if err != nil {
		return []chat.Message{user}, err
	}
	return []chat.Message{user, asst}, nil
}

// Regenerate asks the model again for an answer, kept as a new version of it.
func (e *Engine) Regenerate(ctx context.Context, messageID string) (chat.Message, error) {
	orig, err := e.store.GetMessage(ctx, messageID)
	if err != nil {
		return chat.Message{}, err
	}
	if orig.Role != chat.RoleAssistant {
		return chat.Message{}, refuse("not_regenerable", chat.ErrInvalid, txtNotRegenerable)
	}
	if why := e.busy(orig.ChatID); why != nil {
		return chat.Message{}, why
	}
	if err := e.supersedeUndecided(ctx, orig.ChatID); err != nil {
		return chat.Message{}, err
	}
	return e.startAs(ctx, orig.ChatID, func(m chat.Message) (chat.Message, error) {
		return e.store.AddVersion(ctx, messageID, m)
	})
}

// SwitchVersion makes the conversation go through another version of a message.
func (e *Engine) SwitchVersion(ctx context.Context, messageID string) (chat.Chat, error) {
	m, err := e.store.GetMessage(ctx, messageID)
	if err != nil {
		return chat.Chat{}, err
	}
	if why := e.busy(m.ChatID); why != nil {
		return chat.Chat{}, why
	}
	return e.store.SwitchVersion(ctx, messageID)
}
