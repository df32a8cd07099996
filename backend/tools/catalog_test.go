package tools

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestCatalog(t *testing.T) {
	run := func(context.Context, Env, json.RawMessage) (Output, error) { return Says("ok"), nil }
	tool := func(name, server, schema string) Tool {
		return Tool{Spec: Spec{Name: name, Parameters: json.RawMessage(schema)}, Kind: KindMCP, Server: server, Run: run}
	}
	fixed := []Tool{{Spec: Spec{Name: "read_file", Parameters: json.RawMessage(`{"type":"object"}`)}, Kind: KindFiles, Run: run}}
	remote := []Tool{
		tool("mcp__a__echo", "a", `{"type":"object"}`),
		tool("mcp__b__add", "b", `{"type":"object"}`),
		tool("mcp__b__broken", "b", `{"type":"object","properties":{"x":{"type":7}}}`),
		tool("read_file", "b", `{"type":"object"}`),
	}
	c, err := NewCatalog(fixed, func() []Tool { return remote })
	if err != nil {
		t.Fatal(err)
	}
	names := func(b *Toolbox) string { return strings.Join(b.Registry().Names(), ",") }
	for _, tc := range []struct {
		servers []string
		want    string
	}{
		{nil, "read_file,mcp__a__echo,mcp__b__add"},
		{[]string{"b"}, "read_file,mcp__b__add"},
		{[]string{}, "read_file"},
		{[]string{"gone"}, "read_file"},
	} {
		if got := names(c.For(tc.servers)); got != tc.want {
			t.Errorf("For(%q) = %s, want %s", tc.servers, got, tc.want)
		}
	}
	skipped := c.Skipped()
	if len(skipped) != 2 || !strings.Contains(skipped[0], "mcp__b__broken") || !strings.Contains(skipped[1], "offered twice") {
		t.Errorf("Skipped = %q", skipped)
	}

	// The lists are kept until Changed says the servers' tools changed.
	remote = remote[:1]
	if got := names(c.All()); got != "read_file,mcp__a__echo,mcp__b__add" {
		t.Errorf("before Changed: %s", got)
	}
	c.Changed()
	if got := names(c.All()); got != "read_file,mcp__a__echo" {
		t.Errorf("after Changed: %s", got)
	}
	if s := c.Skipped(); len(s) != 0 {
		t.Errorf("Skipped after Changed = %q", s)
	}
	if _, err := NewCatalog(slices.Repeat(fixed, 2), nil); err == nil {
		t.Error("two fixed tools with one name must be refused")
	}
}

// Building a toolbox compiles every schema (slow for a big one): it happens
// outside the catalogue's lock, so a server's change, or another chat's
// toolbox, does not wait on it. A box built while the tools changed is
// handed out but not kept.
func TestCatalogBuildsOutsideItsLock(t *testing.T) {
	run := func(context.Context, Env, json.RawMessage) (Output, error) { return Says("ok"), nil }
	building, release := make(chan struct{}), make(chan struct{})
	slow := true
	var remote []Tool
	c, err := NewCatalog(nil, func() []Tool {
		if slow {
			slow = false
			close(building)
			<-release
		}
		return remote
	})
	if err != nil {
		t.Fatal(err)
	}
	remote = []Tool{{Spec: Spec{Name: "mcp__a__old", Parameters: json.RawMessage(`{"type":"object"}`)}, Kind: KindMCP, Server: "a", Run: run}}
	got := make(chan *Toolbox)
	go func() { got <- c.All() }()
	<-building
	changed := make(chan struct{})
	go func() {
		c.Changed()
		close(changed)
	}()
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		close(release)
		t.Fatal("Changed waited for a toolbox being built")
	}
	remote = []Tool{{Spec: Spec{Name: "mcp__a__new", Parameters: json.RawMessage(`{"type":"object"}`)}, Kind: KindMCP, Server: "a", Run: run}}
	close(release)
	<-got
	if names := c.All().Registry().Names(); !slices.Equal(names, []string{"mcp__a__new"}) {
		t.Errorf("after the change the catalogue offers %v", names)
	}
}
