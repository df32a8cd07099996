package facade

import (
	"airlock/backend/chat"
	"airlock/backend/store"
	"encoding/json"
	"errors"
)

type apiError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
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
	switch {
	case errors.As(err, &ce):
		return apiError{ce.Code, ce.Message}
	case errors.As(err, &coded):
		return apiError{coded.Code(), err.Error()}
	case errors.Is(err, chat.ErrNotFound):
		return apiError{"not_found", err.Error()}
	case errors.Is(err, chat.ErrInvalid):
		return apiError{"invalid", err.Error()}
	}
	return apiError{"internal", err.Error()}
}

func result[T any](v T, err error) (T, error) { return v, toAPI(err) }
