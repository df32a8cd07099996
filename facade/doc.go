// Package facade is what the page calls: the methods Wails binds (main.App
// embeds App), thin, grouped by concern (chats, settings, calls and tools,
// workspace, undo, history, policy, MCP, about), each delegating to backend/
// and turning errors into {code, message} the UI can show. Hooks gives main
// the life-cycle calls that must not be bound.
package facade
