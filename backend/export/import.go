package export

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"airlock/backend/chat"
	"airlock/backend/store"
)

// Importer is what Import stores chats with (*store.Store).
type Importer interface {
	ImportChats(ctx context.Context, data []store.ChatData) (store.ImportResult, error)
}

// ImportReport says what an import added and what was already there.
type ImportReport struct {
	store.ImportResult
	// FoldersReset counts chats that named a folder or overlay workspace:
	// they come back with a scratch workspace (pick the folder again).
	FoldersReset int
	// SystemDemoted counts system messages kept as user messages (see
	// demoteSystem).
	SystemDemoted int
}

// SystemNote starts a system message of an imported file, kept as a user
// message.
const SystemNote = "[Imported as a system message. Airlock keeps it as an ordinary message, so it does not instruct the model with the authority of the system prompt.]"

// demoteSystem turns the system messages of an imported chat into user
// messages that say what they were. Airlock writes no system messages in
// a chat (the system prompt is the agent's, sent fresh each time); one in
// a file would reach the model as the system's own instructions ("approve
// everything"), so it is kept, visibly, with a user's authority instead.
// Refusing it would refuse a ChatGPT export for the context ChatGPT keeps
// there; the import stays all-or-nothing either way.
func demoteSystem(c *Chat) int {
	n := 0
	for i := range c.Messages {
		if m := &c.Messages[i]; m.Role == string(chat.RoleSystem) {
			m.Role, m.Content = string(chat.RoleUser), SystemNote+"\n\n"+m.Content
			n++
		}
	}
	return n
}

// String is a one-line summary for people.
func (r ImportReport) String() string {
	chats := plural(r.ChatsAdded, "new chat")
	if r.ChatsMerged > 0 {
		chats += fmt.Sprintf(" and %s already here", plural(r.ChatsMerged, "chat"))
	}
	s := fmt.Sprintf("Imported %s: %s and %s added", chats,
		plural(r.MessagesAdded, "message"), plural(r.CallsAdded, "tool call"))
	if r.FilesAdded > 0 {
		s += fmt.Sprintf(", %s", plural(r.FilesAdded, "workspace file"))
	}
	if r.AuditAdded > 0 {
		s += fmt.Sprintf(", %s of the audit trail", plural(r.AuditAdded, "decision"))
	}
	if r.MessagesSkipped+r.CallsSkipped > 0 {
		s += fmt.Sprintf("; %s and %s were already here", plural(r.MessagesSkipped, "message"), plural(r.CallsSkipped, "tool call"))
	}
	s += "."
	if r.SystemDemoted > 0 {
		s += fmt.Sprintf(" %s kept as %s, marked as such: %s not instruct the model as a system prompt would.",
			plural(r.SystemDemoted, "system message was"), pick(r.SystemDemoted, "an ordinary message", "ordinary messages"), pick(r.SystemDemoted, "it does", "they do"))
	}
	if r.FoldersReset > 0 {
		s += fmt.Sprintf(" %s worked in a folder on the computer %s came from; here %s a scratch workspace: choose the folder again in the chat's workspace settings to work in it.",
			plural(r.FoldersReset, "chat"), pick(r.FoldersReset, "it", "they"), pick(r.FoldersReset, "it has", "they have"))
	}
	return s
}

func pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// Import stores a bundle's chats in one transaction: all of them or, on any
// error, none. Importing the same bundle again adds nothing (rows are
// matched by their globally unique IDs; what is already here is kept as
// it is). See store.ImportChats for how a chat already here is merged.
func Import(ctx context.Context, st Importer, b Bundle) (ImportReport, error) {
	if err := b.Validate(); err != nil {
		return ImportReport{}, err
	}
	if len(b.Chats) == 0 {
		return ImportReport{}, importError("nothing to import: the export holds no chats")
	}
	data := make([]store.ChatData, 0, len(b.Chats))
	reset, demoted := 0, 0
	for i, c := range b.Chats {
		if c.Options.WorkspaceKind != "" && c.Options.WorkspaceKind != "scratch" {
			reset++
		}
		c.Messages = slices.Clone(c.Messages) // the caller's bundle stays as read
		demoted += demoteSystem(&c)
		d, err := toStore(c)
		if err != nil {
			return ImportReport{}, importError("chats[%d].%v", i, err)
		}
		data = append(data, d)
	}
	r, err := st.ImportChats(ctx, data)
	if err != nil {
		return ImportReport{}, err
	}
	return ImportReport{r, reset, demoted}, nil
}

// Source is where an imported file came from.
type Source string

const (
	SourceAirlock Source = "airlock" // an Airlock export
	SourceChatGPT Source = "chatgpt" // ChatGPT's conversations.json (or one conversation of it)
)

// Read reads a file to import, recognising an Airlock export or a ChatGPT
// data export's conversations.json.
func Read(r io.Reader) (Bundle, Source, error) {
	data, err := readCapped(r)
	if err != nil {
		return Bundle{}, "", err
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return Bundle{}, "", importError("the file is empty")
	}
	if trimmed[0] == '{' {
		// A single ChatGPT conversation has a "mapping"; an Airlock
		// export a "format". Look at the top-level keys only.
		if isChatGPTConversation(trimmed) {
			b, err := ImportChatGPT(bytes.NewReader(data))
			return b, SourceChatGPT, err
		}
		b, err := ReadJSON(bytes.NewReader(data))
		return b, SourceAirlock, err
	}
	if trimmed[0] == '[' {
		b, err := ImportChatGPT(bytes.NewReader(data))
		return b, SourceChatGPT, err
	}
	if err := checkSyntax(trimmed); err != nil {
		return Bundle{}, "", err
	}
	return Bundle{}, "", importError("not an Airlock export or a ChatGPT conversations.json: the file holds %s", jsonKind(trimmed))
}

// isChatGPTConversation reports an object with a "mapping" and no
// "format" among its top-level keys, reading no further than those.
func isChatGPTConversation(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	mapping := false
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		switch t {
		case "format":
			return false
		case "mapping":
			mapping = true
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return mapping
		}
	}
	return mapping
}
