package facade

import (
	"airlock/backend/chat"
	"airlock/backend/store"
	"encoding/json"
	"errors"

	"airlock/backend/uitext"
)

type apiError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Text is Message coded for the UI's language, when it is coded whole.
	Text *uitext.Text `json:"text,omitempty"`
}

// Error is JSON: Wails hands the string to the UI, which parses it.
func (e apiError) Error() string {
	b, _ := json.Marshal(e)
	return string(b)
}

func toAPI(err error) error {
	if err == nil {
		return nil
	}
	err = store.Explain(err) // a damaged database, in words
	var coded interface{ Code() string }
	var ce *chat.Error
	var text *uitext.Text
	if t, ok := uitext.Whole(err); ok {
		text = &t
	}
	switch {
	case errors.As(err, &ce):
		if ce.Message != err.Error() {
			text = nil // a wrapper said more, in English only
		}
		return apiError{ce.Code, ce.Message, text}
	case errors.As(err, &coded):
		return apiError{coded.Code(), err.Error(), text}
	case errors.Is(err, chat.ErrNotFound):
		return apiError{"not_found", err.Error(), text}
	case errors.Is(err, chat.ErrInvalid):
		return apiError{"invalid", err.Error(), text}
	}
	return apiError{"internal", err.Error(), text}
}

func result[T any](v T, err error) (T, error) { return v, toAPI(err) }
