package mcp

import (
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"airlock/backend/tools"
)

// A tool said to be both read-only and destructive is taken as
// destructive: no rule on read-only tools covers it.
func TestHintsOfContradictoryAnnotations(t *testing.T) {
	yes, no := true, false
	cases := []struct {
		a    *sdk.ToolAnnotations
		want *tools.Hints
	}{
		{nil, nil},
		{&sdk.ToolAnnotations{ReadOnlyHint: true}, &tools.Hints{ReadOnly: true}},
		{&sdk.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: &no}, &tools.Hints{ReadOnly: true}},
		{&sdk.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: &yes}, &tools.Hints{Destructive: true}},
		{&sdk.ToolAnnotations{DestructiveHint: &yes}, &tools.Hints{Destructive: true}},
	}
	for i, c := range cases {
		got := hintsOf(&sdk.Tool{Name: "x", Annotations: c.a})
		if (got == nil) != (c.want == nil) || (got != nil && *got != *c.want) {
			t.Errorf("case %d: %+v, want %+v", i, got, c.want)
		}
	}
}
