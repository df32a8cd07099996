package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"strings"
	"time"

	"airlock/backend/chat"
)

// The Markdown and HTML exports are for reading: each chat's active path
// (the conversation as shown), with a note on turns that have other
// versions. The JSON export holds every version.

// WriteMarkdown writes the chats as Markdown (GitHub-flavoured): each
// message under a heading with who and when, reasoning and tool calls in
// collapsible <details> blocks (arguments, the decision and who made it
// when, the result), the text of answers as the model wrote it.
func WriteMarkdown(w io.Writer, b Bundle, opts ...Option) error {
	o := makeOptions(opts)
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	if len(b.Chats) > 1 {
		p("# Airlock chats\n\nExported %s: %d chats.\n\n", o.time(b.ExportedAt), len(b.Chats))
		for _, c := range b.Chats {
			p("- [%s](#%s)\n", mdInline(title(c)), anchor(c))
		}
		p("\n")
	}
	for i, c := range b.Chats {
		if i > 0 {
			p("\n---\n\n")
		}
		p("<a id=\"%s\"></a>\n\n# %s\n\n%s\n", anchor(c), mdInline(title(c)), mdInline(chatMeta(c, b, o)))
		calls := c.callsByMessage()
		for _, m := range c.ActivePath() {
			// Blocks of a message, separated by one blank line.
			blocks := []string{"## " + mdInline(messageHeading(m, o))}
			switch {
			case m.Kind == string(chat.KindToolResults):
				blocks = append(blocks, details("Tool results sent to the model", fence(m.Content, "")))
			case m.Role == string(chat.RoleUser):
				blocks = append(blocks, keepLines(m.Content))
				if files := mdFiles(m.Attachments, o.links); files != "" {
					blocks = append(blocks, files)
				}
			default:
				if strings.TrimSpace(m.Reasoning) != "" {
					blocks = append(blocks, details("Reasoning", keepLines(m.Reasoning)))
				}
				if strings.TrimSpace(m.Content) != "" {
					blocks = append(blocks, strings.TrimRight(m.Content, "\n"))
				}
			}
			if note := statusNote(m.Message); note != "" {
				blocks = append(blocks, "> "+mdInline(note))
			}
			for _, cl := range calls[m.ID] {
				parts := []string{"**Arguments**", fence(prettyJSON(cl.Arguments), "json")}
				if e := strings.TrimSpace(string(cl.Edited)); e != "" && e != "null" {
					parts = append(parts, "**Edited by the user before it ran**", fence(prettyJSON(cl.Edited), "json"))
				}
				if cl.Problem != "" {
					parts = append(parts, "**Problem:** "+mdInline(cl.Problem))
				}
				parts = append(parts, "**Decision:** "+mdInline(decisionText(cl, o)))
				if cl.Result != "" {
					parts = append(parts, "**Result**"+resultLabel(cl), fence(cl.Result, ""))
				}
				blocks = append(blocks, details(callSummary(cl), strings.Join(parts, "\n\n")))
			}
			p("\n%s\n", strings.Join(blocks, "\n\n"))
		}
	}
	return bw.Flush()
}

func (o options) time(ms int64) string {
	if ms == 0 {
		return "unknown time"
	}
	return time.UnixMilli(ms).In(o.loc).Format("2006-01-02 15:04 MST")
}

func title(c Chat) string {
	if strings.TrimSpace(c.Title) == "" {
		return "Untitled chat"
	}
	return c.Title
}

// anchor is a stable in-document link target for a chat.
func anchor(c Chat) string {
	var b strings.Builder
	b.WriteString("chat-")
	for _, r := range c.ID {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func chatMeta(c Chat, b Bundle, o options) string {
	parts := []string{"Started " + o.time(c.CreatedAt), "last activity " + o.time(c.UpdatedAt)}
	parts = append(parts, toolCallsMeta(c.Options))
	ws := c.Options.WorkspaceKind + " workspace"
	if c.Options.WorkspaceDir != "" {
		ws += " (" + c.Options.WorkspaceDir + ")"
	}
	parts = append(parts, ws)
	if len(b.Chats) == 1 {
		parts = append(parts, "exported "+o.time(b.ExportedAt))
	}
	return strings.Join(parts, " · ")
}

func roleName(m Message) string {
	switch {
	case m.Kind == string(chat.KindToolResults):
		return "Tool results"
	case m.Role == string(chat.RoleUser):
		return "You"
	case m.Role == string(chat.RoleSystem):
		return "System"
	}
	return "Assistant"
}

func messageHeading(m PathMessage, o options) string {
	parts := []string{roleName(m.Message), o.time(m.CreatedAt)}
	if m.Model != "" && m.Role == string(chat.RoleAssistant) {
		parts = append(parts, m.Model)
	}
	if m.Versions > 1 {
		parts = append(parts, fmt.Sprintf("version %d of %d", m.Version, m.Versions))
	}
	return strings.Join(parts, " · ")
}

func statusNote(m Message) string {
	switch chat.Status(m.Status) {
	case chat.StatusInterrupted:
		return "Stopped before the answer was complete."
	case chat.StatusError:
		if m.ErrorMessage != "" {
			return "The answer failed: " + m.ErrorMessage
		}
		return "The answer failed."
	}
	return ""
}

var stateNames = map[string]string{
	"pending": "waiting for a decision", "approved": "approved", "running": "running", "done": "done",
	"error": "failed", "denied": "denied", "interrupted": "interrupted", "problem": "could not be read",
}

func stateName(s string) string {
	if n, ok := stateNames[s]; ok {
		return n
	}
	return s
}

func callSummary(cl Call) string {
	name := cl.Name
	if name == "" {
		name = "(unknown tool)"
	}
	return "Tool call " + name + " — " + stateName(cl.State)
}

func deciderName(by string) string {
	switch by {
	case chat.ByUser:
		return "you"
	case chat.ByRuleChat:
		return "an always-allow rule for this chat"
	case chat.ByRuleGlobal:
		return "an always-allow rule for every chat"
	case chat.ByInterrupted:
		return "Airlock"
	case chat.ByNewMessage:
		return "a new message (nobody decided)"
	case "":
		return "nobody"
	}
	if id := chat.RuleID(by); id > 0 {
		return fmt.Sprintf("rule %d", id)
	}
	return by
}

// decisionText says what was decided about a call, by whom and when.
func decisionText(cl Call, o options) string {
	if cl.Decision == nil {
		if cl.State == "pending" || cl.State == "problem" {
			return "none yet"
		}
		return "none recorded"
	}
	verb := "approved"
	switch cl.State {
	case "denied":
		verb = "denied"
	case "problem":
		verb = "handled"
	case "pending":
		verb = "decided"
	}
	s := fmt.Sprintf("%s by %s, %s", verb, deciderName(cl.Decision.By), o.time(cl.Decision.At))
	if cl.Decision.Reason != "" {
		s += " — reason: " + cl.Decision.Reason
	}
	return s
}

func resultLabel(cl Call) string {
	var parts []string
	if cl.ResultState != "" {
		parts = append(parts, cl.ResultState)
	}
	if cl.Truncated {
		parts = append(parts, "cut at the output limit")
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// details is a collapsible block; the blank lines around the body let
// Markdown inside it render.
func details(summary, body string) string {
	return "<details>\n<summary>" + html.EscapeString(summary) + "</summary>\n\n" + body + "\n\n</details>"
}

// fence wraps text in a code fence longer than any run of backticks in it.
func fence(text, lang string) string {
	longest, run := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", max(3, longest+1))
	return f + lang + "\n" + strings.TrimRight(text, "\n") + "\n" + f
}

// keepLines keeps the line breaks of text a person typed (Markdown would
// join the lines of a paragraph): each line but the last ends with two
// spaces, a hard break.
func keepLines(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "" && i < len(lines)-1 {
			lines[i] = l + "  "
		}
	}
	return strings.Join(lines, "\n")
}

// mdInline escapes the characters that would start Markdown or HTML
// inside one line of text we generate (titles, names, notes).
func mdInline(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\', '`', '*', '_', '[', ']', '<', '>', '#', '|', '~':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// prettyJSON indents a JSON value for reading (keys keep the model's
// order); other text is kept as it is.
func prettyJSON(raw json.RawMessage) string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return string(raw)
	}
	return buf.String()
}

// toolCallsMeta says how the chat's model called tools: through the API
// (native), as text in the paradigm, or (Auto) whichever the model takes.
func toolCallsMeta(o Options) string {
	switch chat.ToolMode(o.ToolMode) {
	case chat.ToolModeNative:
		return "native tool calls"
	case chat.ToolModeAuto:
		return "tool calls native where the model takes them, else written as " + strings.ToUpper(o.Paradigm)
	}
	return "tool calls written as " + strings.ToUpper(o.Paradigm)
}
