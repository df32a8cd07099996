package demomodel_test

import (
	"context"
	"errors"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/llm"
)

// outcome is what one streamed answer from the demo server came to.
type outcome struct {
	text, reasoning string
	deltas          int
	live            []llm.ToolCall // the calls as the deltas built them
	res             llm.Result
	err             error
}

func stream(t *testing.T, cfg llm.Config, ctx context.Context, req llm.Request) outcome {
	t.Helper()
	if len(req.Messages) == 0 {
		req.Messages = []llm.Message{{Role: chat.RoleUser, Content: "hi"}}
	}
	var o outcome
	o.res, o.err = llm.New(cfg).Stream(ctx, req, func(d llm.Delta) {
		o.deltas++
		if d.TextWasReasoning {
			o.reasoning += o.text
			o.text = ""
		}
		o.reasoning += d.Reasoning
		o.text += d.Text
		for _, tc := range d.ToolCalls {
			for tc.Index >= len(o.live) {
				o.live = append(o.live, llm.ToolCall{})
			}
			c := &o.live[tc.Index]
			if tc.ID != "" {
				c.ID = tc.ID
			}
			c.Name += tc.Name
			c.Arguments += tc.Arguments
		}
	})
	return o
}

func wantKind(t *testing.T, err error, kind llm.ErrorKind) *llm.Error {
	t.Helper()
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != kind {
		t.Fatalf("want *llm.Error of kind %s, got %T %v", kind, err, err)
	}
	return e
}
