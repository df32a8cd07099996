// Package mcp connects Airlock to MCP servers (on the official Go SDK,
// github.com/modelcontextprotocol/go-sdk) and offers their tools as
// tools.Tool, so an MCP tool takes the same road as every other tool:
// card, decision, the engine's one run path. It knows nothing of Wails or
// the store.
//
// # Config
//
// A ServerConfig is a stdio server (Command, Args, Env, Dir) or a remote
// one (URL, Headers; Transport http for Streamable HTTP, sse for the older
// HTTP+SSE), with Enabled and optional InitTimeout/ListTimeout.
// ParseConfig reads the mcpServers JSON of Claude Desktop and Cursor, the
// bare inner object, and VS Code's "servers"; its errors name the server
// and the field. ValidateName/ValidateAll check names (1–32 letters, digits,
// '-', '_'; no "__"; unique). Redacted masks every env value, header value,
// URL password and URL query value: use it for anything logged, shown or
// exported. (Args are shown as they are.)
//
// # Manager
//
//	m := mcp.NewManager(mcp.Options{OnChange: refreshToolbox})
//	err := m.Configure(cfgs) // validates, then starts enabled servers in the background
//	m.Status()               // []Status: starting · ready (Tools) · failed (Reason, Stderr) · stopped
//	m.Tools()                // []tools.Tool of ready servers, for tools.NewToolbox
//	m.Restart(ctx, "github") // waits until ready; the error says why not
//	m.Stop("github")
//	m.Close()                // stops all (stdin closed, grace, SIGTERM, grace, kill) and waits
//
// Configure again with an edited list: unchanged servers keep running,
// changed ones restart, removed or disabled ones stop. OnChange runs on its
// own goroutine (coalesced, never concurrently) whenever a status or a tool
// list changes, including when a server announces tools/list_changed.
//
// # What a server may cost
//
// A server can't take Airlock down (flood.go, caps.go): tools/list_changed
// re-reads the list with one refresh running and one pending, at most one a
// second; notifications beyond MaxNotificationsPerSecond and log lines
// beyond MaxLogLinesPerSecond are dropped (on stdio, as they are read) and
// counted in the status and the log. A server offers at most
// MaxToolsPerServer tools, descriptions are cut at MaxDescriptionBytes, an
// input schema over MaxSchemaBytes or MaxSchemaDepth leaves its tool out,
// and one server's tools together stay under MaxServerToolBytes; each cap
// hit is a line in Status.Problems ("3 tools left out: input schema over
// 64 KB (a, b, c)").
//
// Stdio servers run in their own process group (a job object on Windows,
// parent-death signal on Linux), so their helpers die with them and with
// Airlock. On Linux the helpers that leave the group (setsid, a double
// fork) are found too, by parent and by a marker in their environment, and
// ended with the server (or, if Airlock was killed, by the next Airlock's
// first Manager: the marker names the Airlock that started them); the last 4 KB of their stderr, with secrets masked, is kept for
// the failed status. The SDK bounds each incoming message to 16 MB.
//
// A server that stops unexpectedly is "failed" with RestartsOnUse: its
// tools stay offered and the next call restarts it, once; if that restart
// fails, its tools go and the call's error says why.
//
// # Tools and calls
//
// Each MCP tool becomes a tools.Tool named mcp__<server>__<tool> (see
// ToolNames: sanitised to [A-Za-z0-9_-], at most 64 characters, unique and
// deterministic), Kind tools.KindMCP, Server the server's name, and the
// tool's inputSchema as Parameters. A tool whose inputSchema does not
// compile (with the toolbox's own compiler) is left out and listed in
// Status.Problems. An outputSchema is compiled and checked against each
// structuredContent; a mismatch is said in the text, not marked as an error
// (the tool did run).
//
// Run cancels through ctx: the SDK retires the call at once and sends
// notifications/cancelled to the server. The per-call timeout is the
// caller's. Text content is joined into Output.Text; images go to
// Output.Images with a line telling the model it can't see them; resource
// links and embedded resources are summarised; isError becomes
// Output.IsError; structuredContent becomes Output.Structured (and the
// text, when there is no other). Text, images and structured content
// together are cut at Options.MaxResultBytes (1 MB) with a note, and the
// server's credentials (header values, URL secrets, env values named or
// shaped like keys) are masked in them, as in its errors. A Go error
// (server gone, call refused, cancelled) is written for the model: "the
// MCP server "x" stopped while running y (exit status 3)" and the stderr
// tail.
//
// # Prompts, resources, instructions
//
// Offers lists the prompts, resources and resource templates of ready
// servers when the person asks (never on its own), capped per server
// (MaxListedPrompts, MaxListedResources, MaxListedTemplates; a cut list is a
// problem line). GetPrompt and ReadResource return a Part: text for the
// message and Files to attach (the caller checks them like attached files);
// one brings at most MaxOfferBytes. Complete asks for argument values
// (at most MaxCompletions). A prompts or resources list_changed makes
// OnChange run, so the UI reads the lists again. Status.Instructions is the
// server's initialize instructions, cut at MaxInstructionsBytes.
package mcp
