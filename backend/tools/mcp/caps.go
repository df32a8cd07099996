package mcp

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"airlock/backend/tools"
)

// Caps on what one server may offer. Every tool offered goes into the
// system prompt (or the API's tools) of every request, and its schema is
// compiled: without caps, one server listing 10,000 tools or 1 MB
// descriptions made a 1–12 MB prompt, and a 60,000-property schema took 28 s
// to compile. What a cap leaves out is named in the server's status.
const (
	// MaxToolsPerServer: the tools after these (in the server's order) are
	// left out.
	MaxToolsPerServer = 200
	// MaxDescriptionBytes: a longer description is cut, with a note saying so.
	MaxDescriptionBytes = 8 << 10
	// MaxSchemaBytes and MaxSchemaDepth (JSON nesting): a tool whose input
	// schema is larger or deeper is left out; an output schema that is, is
	// not checked.
	MaxSchemaBytes = 64 << 10
	MaxSchemaDepth = 32
	// MaxServerToolBytes: the names, descriptions and schemas of one
	// server's tools together; the tools past it are left out.
	MaxServerToolBytes = 512 << 10
	// maxListedTools: Airlock reads no further in a server's list.
	maxListedTools = 10_000
)

// candidate is a listed tool that passed the caps, not yet named or
// compiled.
type candidate struct {
	remote, description string
	params              json.RawMessage // nil: none given
	output              any
	hints               *tools.Hints
}

// capper screens a server's tools as they are listed, keeping only what
// fits, so a huge list is never held whole.
type capper struct {
	kept    []candidate
	bytes   int
	seen    int
	cut     []string            // tools whose description was cut
	leftOut map[string][]string // why → tools
	whys    []string            // in the order first seen
}

func (c *capper) leave(name, why string) {
	if c.leftOut == nil {
		c.leftOut = map[string][]string{}
	}
	if _, ok := c.leftOut[why]; !ok {
		c.whys = append(c.whys, why)
	}
	c.leftOut[why] = append(c.leftOut[why], name)
}

func (c *capper) screen(t *sdk.Tool) {
	c.seen++
	name := cutUTF8(t.Name, 64)
	desc := t.Description
	if desc == "" {
		desc = t.Title
	}
	if len(desc) > MaxDescriptionBytes {
		desc = strings.Clone(cutUTF8(desc, MaxDescriptionBytes)) + fmt.Sprintf(" … [Airlock: the description was cut at %d KB]", MaxDescriptionBytes>>10)
		c.cut = append(c.cut, name)
	}
	var params json.RawMessage
	if t.InputSchema != nil {
		raw, err := json.Marshal(t.InputSchema)
		switch {
		case err != nil:
		case len(raw) > MaxSchemaBytes:
			c.leave(name, fmt.Sprintf("input schema over %d KB", MaxSchemaBytes>>10))
			return
		case jsonDepth(raw) > MaxSchemaDepth:
			c.leave(name, fmt.Sprintf("input schema nested deeper than %d levels", MaxSchemaDepth))
			return
		default:
			params = raw
		}
	}
	size := len(t.Name) + len(desc) + len(params)
	switch {
	case len(c.kept) >= MaxToolsPerServer:
		c.leave(name, fmt.Sprintf("over %d tools per server", MaxToolsPerServer))
		return
	case c.bytes+size > MaxServerToolBytes:
		c.leave(name, fmt.Sprintf("the server's tools together pass %d KB", MaxServerToolBytes>>10))
		return
	}
	c.bytes += size
	c.kept = append(c.kept, candidate{remote: t.Name, description: desc, params: params, output: t.OutputSchema, hints: hintsOf(t)})
}

// problems says what the caps left out or cut: "12 tools left out: input
// schema over 64 KB (a, b, c, …)".
func (c *capper) problems() []string {
	var out []string
	for _, why := range c.whys {
		names := c.leftOut[why]
		out = append(out, fmt.Sprintf("%s left out: %s (%s)", count(len(names), "tool"), why, someNames(names)))
	}
	if len(c.cut) > 0 {
		out = append(out, fmt.Sprintf("%s cut to %d KB (%s)", count(len(c.cut), "tool description"), MaxDescriptionBytes>>10, someNames(c.cut)))
	}
	if c.seen >= maxListedTools {
		out = append(out, fmt.Sprintf("the server lists more than %d tools; Airlock read no further", maxListedTools))
	}
	return out
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func someNames(names []string) string {
	const show = 5
	if len(names) <= show {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:show], ", ") + ", …"
}

// jsonDepth is the deepest nesting of objects and arrays in raw (valid JSON).
func jsonDepth(raw []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, b := range raw {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			depth++
			deepest = max(deepest, depth)
		case b == '}' || b == ']':
			depth--
		}
	}
	return deepest
}

// hintsOf reads a tool's annotations (the title cut at 200 bytes); nil
// when there are none. DestructiveHint defaults to true in the spec, but a
// server that said nothing is not shown as destructive: only what it said.
// A tool said to be both read-only and destructive is taken as destructive
// (not read-only), so no "read-only tools" rule covers it.
func hintsOf(t *sdk.Tool) *tools.Hints {
	a := t.Annotations
	if a == nil {
		return nil
	}
	destructive := a.DestructiveHint != nil && *a.DestructiveHint
	h := &tools.Hints{Title: clipTitle(a.Title), ReadOnly: a.ReadOnlyHint && !destructive, Destructive: destructive}
	if *h == (tools.Hints{}) {
		return nil
	}
	return h
}

func clipTitle(s string) string {
	s = strings.ToValidUTF8(strings.TrimSpace(s), "")
	if len(s) <= 200 {
		return s
	}
	cut := 200
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
