package tools

import (
	"slices"
	"strings"
	"sync"
)

// Catalog is every tool Airlock can offer: the fixed ones (built in, file
// tools) and those MCP servers bring, which come and go as servers start,
// stop and change their lists. A chat sees the fixed tools and the tools of
// the servers it chose.
type Catalog struct {
	fixed   []Tool
	dynamic func() []Tool // the MCP servers' tools as they are now

	mu      sync.Mutex
	boxes   map[string]*Toolbox // by the chat's choice of servers
	skipped []string            // why dynamic tools were left out, for the Tool lab
	gen     int                 // counts Changed calls: a box built across one is not kept
}

// NewCatalog checks the fixed tools (a bad one is a programming error);
// dynamic, when set, is asked for the current MCP tools whenever Changed
// was called since the last time.
func NewCatalog(fixed []Tool, dynamic func() []Tool) (*Catalog, error) {
	if _, err := NewToolbox(fixed...); err != nil {
		return nil, err
	}
	return &Catalog{fixed: fixed, dynamic: dynamic, boxes: map[string]*Toolbox{}}, nil
}

// Changed forgets the toolboxes built so far: call it when a server's
// tools changed.
func (c *Catalog) Changed() {
	c.mu.Lock()
	c.boxes = map[string]*Toolbox{}
	c.gen++
	c.mu.Unlock()
}

// All is every tool, each MCP server's included (the Tool lab).
func (c *Catalog) All() *Toolbox { return c.box(nil) }

// For is the toolbox of a chat that chose the given servers: nil means
// every server.
func (c *Catalog) For(servers []string) *Toolbox { return c.box(servers) }

// Skipped says which MCP tools were left out, and why.
func (c *Catalog) Skipped() []string {
	c.box(nil)
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.skipped)
}

// box returns the toolbox for a choice of servers, building it if needed.
// Building compiles every schema, which takes a while for big ones: it runs
// outside the lock, so Changed and other chats never wait on it.
func (c *Catalog) box(servers []string) *Toolbox {
	key := "*"
	if servers != nil {
		key = "=" + strings.Join(servers, "\x00")
	}
	c.mu.Lock()
	b, ok := c.boxes[key]
	gen := c.gen
	c.mu.Unlock()
	if ok {
		return b
	}
	b, skipped := c.build(servers)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen { // the tools changed meanwhile: hand this one out, keep none
		return b
	}
	if kept, ok := c.boxes[key]; ok { // built meanwhile by another caller
		return kept
	}
	c.boxes[key] = b
	if key == "*" {
		c.skipped = skipped
	}
	return b
}

// build makes the toolbox of the fixed tools and the chosen servers' tools,
// and says which of those were left out.
func (c *Catalog) build(servers []string) (*Toolbox, []string) {
	tools := slices.Clone(c.fixed)
	var skipped []string
	if c.dynamic != nil {
		taken := map[string]bool{}
		for _, t := range c.fixed {
			taken[t.Name] = true
		}
		for _, t := range c.dynamic() {
			if servers != nil && !slices.Contains(servers, t.Server) {
				continue
			}
			if why := c.unfit(t, taken); why != "" {
				skipped = append(skipped, why)
				continue
			}
			taken[t.Name] = true
			tools = append(tools, t)
		}
	}
	b, err := NewToolbox(tools...)
	if err != nil { // every tool was checked on its own; this cannot fail
		b, _ = NewToolbox(c.fixed...)
	}
	return b, skipped
}

// unfit says why a server's tool cannot be offered ("" when it can): its
// schema does not compile, or its name is taken.
func (c *Catalog) unfit(t Tool, taken map[string]bool) string {
	if taken[t.Name] {
		return "MCP server " + t.Server + ": tool " + t.Name + " is offered twice; the second is left out"
	}
	if _, err := NewToolbox(t); err != nil {
		return "MCP server " + t.Server + ": " + err.Error() + "; the tool is left out"
	}
	return ""
}
