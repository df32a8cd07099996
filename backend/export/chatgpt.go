package export

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"airlock/backend/chat"
	"airlock/backend/workspace"
)

// ChatGPT's data export holds conversations.json: an array of
// conversations, each a tree of messages ("mapping": node id → {message,
// parent, children}) with "current_node" the end of the branch last shown.
// ImportChatGPT turns it into a Bundle, keeping the tree: a ChatGPT edit or
// regeneration (sibling nodes) becomes a version, current_node the active
// path.
//
//   - Chat IDs are "chatgpt-<conversation id>", message IDs
//     "chatgpt-<node id>": importing the same file again adds nothing.
//   - Nodes without a message, hidden ones (the empty system prompt,
//     custom instructions) and empty ones are left out; their children
//     hang from the nearest message kept above them.
//   - Text, multimodal text (images become "[image]"), code and execution
//     output (as code blocks), quotes and browsing results are kept as
//     text. "thoughts" (o-series reasoning) become the reasoning of the
//     answer that follows; the "Thought for N seconds" recaps are dropped.
//   - Tool messages (browser, python, ...) become tool-results messages,
//     the way Airlock passes tool output back to a model.
//   - Times are seconds in ChatGPT, milliseconds here; a message without
//     one gets its parent's plus a millisecond (the conversation's for a
//     first message).

type gptConversation struct {
	Title          string             `json:"title"`
	CreateTime     *float64           `json:"create_time"`
	UpdateTime     *float64           `json:"update_time"`
	Mapping        map[string]gptNode `json:"mapping"`
	CurrentNode    string             `json:"current_node"`
	ConversationID string             `json:"conversation_id"`
	ID             string             `json:"id"`
}

type gptNode struct {
	ID       string      `json:"id"`
	Message  *gptMessage `json:"message"`
	Parent   *string     `json:"parent"`
	Children []string    `json:"children"`
}

type gptMessage struct {
	ID     string `json:"id"`
	Author *struct {
		Role string `json:"role"`
		Name string `json:"name"`
	} `json:"author"`
	CreateTime *float64        `json:"create_time"`
	Content    json.RawMessage `json:"content"`
	Status     string          `json:"status"`
	Recipient  string          `json:"recipient"`
	Metadata   struct {
		ModelSlug string `json:"model_slug"`
		Hidden    bool   `json:"is_visually_hidden_from_conversation"`
	} `json:"metadata"`
}

type gptContent struct {
	ContentType string            `json:"content_type"`
	Parts       []json.RawMessage `json:"parts"`
	Text        string            `json:"text"`
	Language    string            `json:"language"`
	Result      string            `json:"result"`
	Title       string            `json:"title"`
	URL         string            `json:"url"`
	Thoughts    []struct {
		Summary string `json:"summary"`
		Content string `json:"content"`
	} `json:"thoughts"`
}

// ImportChatGPT reads ChatGPT's conversations.json (an array of
// conversations, or a single conversation object) into a bundle ready for
// Import. Errors name the conversation and what is wrong.
func ImportChatGPT(r io.Reader) (Bundle, error) {
	data, err := readCapped(r)
	if err != nil {
		return Bundle{}, err
	}
	if err := checkSyntax(data); err != nil {
		return Bundle{}, err
	}
	data = bytes.TrimSpace(data)
	var raws []json.RawMessage
	if data[0] == '{' {
		raws = []json.RawMessage{data}
	} else if err := json.Unmarshal(data, &raws); err != nil {
		return Bundle{}, importError("not a ChatGPT export: want an array of conversations, got %s", jsonKind(data))
	}
	b := Bundle{Format: Format, Version: Version, ExportedAt: chat.Now(), Chats: []Chat{}}
	for i, raw := range raws {
		path := fmt.Sprintf("conversations[%d]", i)
		var conv gptConversation
		if err := decodeObject(raw, path, &conv, "mapping"); err != nil {
			return Bundle{}, err
		}
		c, err := convertConversation(conv, path)
		if err != nil {
			return Bundle{}, err
		}
		if len(c.Messages) > 0 { // nothing to read: not made into an empty chat
			b.Chats = append(b.Chats, c)
		}
	}
	if len(b.Chats) == 0 {
		return Bundle{}, importError("no messages to import: the file holds %s with no message in %s (is it a ChatGPT conversations.json?)",
			plural(len(raws), "conversation"), pick(len(raws), "it", "them"))
	}
	if err := b.Validate(); err != nil {
		return Bundle{}, err
	}
	return b, nil
}

func secondsToMillis(s *float64) int64 {
	if s == nil || math.IsNaN(*s) || math.IsInf(*s, 0) || *s <= 0 {
		return 0
	}
	return int64(math.Round(*s * 1000))
}

func convertConversation(conv gptConversation, path string) (Chat, error) {
	id := conv.ConversationID
	if id == "" {
		id = conv.ID
	}
	if id == "" {
		// Older exports: derive a stable id from what identifies it.
		sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%v\x00%d", conv.Title, secondsToMillis(conv.CreateTime), len(conv.Mapping)))
		id = hex.EncodeToString(sum[:12])
	}
	created := secondsToMillis(conv.CreateTime)
	updated := max(secondsToMillis(conv.UpdateTime), created)
	d := chat.DefaultChatOptions()
	c := Chat{ID: "chatgpt-" + id, Title: strings.TrimSpace(conv.Title), CreatedAt: created, UpdatedAt: updated,
		Options:  Options{Paradigm: d.Paradigm, RecognizeOthers: d.RecognizeOthers, WorkspaceKind: d.WorkspaceKind},
		Messages: []Message{}, Calls: []Call{}, ScratchFiles: []File{}}

	keys := make([]string, 0, len(conv.Mapping))
	for k := range conv.Mapping {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	// Check the messages first, so a damaged file fails with its path.
	for _, k := range keys {
		n := conv.Mapping[k]
		if n.Message != nil && (n.Message.Author == nil || n.Message.Author.Role == "") {
			return Chat{}, importError("%s.mapping[%q].message.author.role: missing", path, k)
		}
	}
	var roots []string
	for _, k := range keys {
		n := conv.Mapping[k]
		if n.Parent == nil || *n.Parent == "" {
			roots = append(roots, k)
		} else if _, ok := conv.Mapping[*n.Parent]; !ok {
			roots = append(roots, k)
		}
	}
	kept := map[string]string{} // node → the kept message it maps to (itself or its nearest kept ancestor; "" for none)
	visited := map[string]bool{}
	// An explicit stack, not recursion: a chain of 100,000 nodes is a
	// normal export. Reasoning waiting for its answer is a shared chain of
	// pieces, not a string copied into every frame (that made a 4 MB
	// thoughts chain cost 4 GB): each node adds one link, and an answer
	// joins its chain once, capped.
	type frame struct {
		key, parentMsg string
		parentTime     int64
		reasoning      *thought
	}
	stack := make([]frame, 0, len(roots))
	for i := len(roots) - 1; i >= 0; i-- {
		stack = append(stack, frame{key: roots[i], parentTime: created})
	}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if visited[f.key] {
			continue // a loop or a node reached twice: keep the first way
		}
		visited[f.key] = true
		n := conv.Mapping[f.key]
		here, hereTime, reasoning := f.parentMsg, f.parentTime, f.reasoning
		if n.Message != nil {
			m, carry, keep, err := convertMessage(n.Message, fmt.Sprintf("%s.mapping[%q].message", path, f.key))
			if err != nil {
				return Chat{}, err
			}
			t := secondsToMillis(n.Message.CreateTime)
			if t == 0 && f.parentTime != 0 {
				t = f.parentTime + 1 // just after its parent
			}
			switch {
			case keep:
				m.ID, m.ParentID, m.CreatedAt, m.UpdatedAt = "chatgpt-"+f.key, f.parentMsg, t, t
				if m.Role == string(chat.RoleAssistant) && reasoning != nil {
					m.Reasoning = strings.TrimSpace(reasoning.join(MaxMessageBytes-len(m.Reasoning)) + "\n\n" + m.Reasoning)
				}
				if m.Role == string(chat.RoleAssistant) || m.Role == string(chat.RoleUser) && m.Kind == string(chat.KindText) {
					reasoning = nil
				}
				c.Messages = append(c.Messages, m)
				here, hereTime = m.ID, t
			case carry != "":
				reasoning = reasoning.add(carry)
				hereTime = max(hereTime, t)
			}
		}
		kept[f.key] = here
		for i := len(n.Children) - 1; i >= 0; i-- {
			if child := n.Children[i]; !visited[child] {
				if _, ok := conv.Mapping[child]; ok {
					stack = append(stack, frame{child, here, hereTime, reasoning})
				}
			}
		}
	}
	sort.SliceStable(c.Messages, func(i, j int) bool {
		if c.Messages[i].CreatedAt != c.Messages[j].CreatedAt {
			return c.Messages[i].CreatedAt < c.Messages[j].CreatedAt
		}
		return c.Messages[i].ID < c.Messages[j].ID
	})
	// The active path ends at current_node (or the message kept above it);
	// without one, it follows the newest message at each step, as
	// SwitchVersion does.
	if leaf, ok := kept[conv.CurrentNode]; ok {
		c.LeafID = leaf
	} else {
		newest := map[string]string{} // parent → newest child (Messages are sorted oldest first)
		for _, m := range c.Messages {
			newest[m.ParentID] = m.ID
		}
		for id, steps := newest[""], 0; id != "" && steps <= len(c.Messages); id, steps = newest[id], steps+1 {
			c.LeafID = id
		}
	}
	if c.Title == "" {
		c.Title = "Untitled chat"
	}
	if c.CreatedAt == 0 && len(c.Messages) > 0 {
		c.CreatedAt = c.Messages[0].CreatedAt
	}
	c.UpdatedAt = max(c.UpdatedAt, c.CreatedAt)
	for _, m := range c.Messages {
		c.UpdatedAt = max(c.UpdatedAt, m.CreatedAt)
	}
	return c, nil
}

// convertMessage turns one ChatGPT message into ours. keep is false for
// what is left out; carry is reasoning to hand to the next answer.
func convertMessage(gm *gptMessage, path string) (m Message, carry string, keep bool, err error) {
	var ct gptContent
	if len(gm.Content) > 0 && string(gm.Content) != "null" {
		if err := decodeObject(gm.Content, path+".content", &ct); err != nil {
			return m, "", false, err
		}
	}
	role := gm.Author.Role
	if gm.Metadata.Hidden {
		return m, "", false, nil
	}
	m = Message{Kind: string(chat.KindText), Status: string(chat.StatusComplete), Model: gm.Metadata.ModelSlug}
	if gm.Status == "in_progress" {
		m.Status = string(chat.StatusInterrupted)
	}
	switch ct.ContentType {
	case "thoughts":
		var parts []string
		for _, t := range ct.Thoughts {
			s := strings.TrimSpace(t.Content)
			if t.Summary != "" {
				s = strings.TrimSpace("**" + t.Summary + "**\n\n" + s)
			}
			if s != "" {
				parts = append(parts, s)
			}
		}
		return m, strings.Join(parts, "\n\n"), false, nil
	case "reasoning_recap", "user_editable_context", "model_editable_context":
		return m, "", false, nil
	}
	text := strings.TrimSpace(contentText(ct))
	switch role {
	case "user":
		m.Role = string(chat.RoleUser)
	case "assistant":
		m.Role = string(chat.RoleAssistant)
	case "system":
		m.Role = string(chat.RoleSystem)
	case "tool":
		m.Role, m.Kind = string(chat.RoleUser), string(chat.KindToolResults)
		if gm.Author.Name != "" && text != "" {
			text = "Output of " + gm.Author.Name + ":\n\n" + text
		}
	default:
		return m, "", false, nil
	}
	if text == "" {
		return m, "", false, nil
	}
	m.Content = text
	return m, "", true, nil
}

// contentText extracts the readable text of a ChatGPT content object.
func contentText(ct gptContent) string {
	switch ct.ContentType {
	case "code":
		return fence(ct.Text, codeLanguage(ct.Language))
	case "execution_output":
		return fence(ct.Text, "")
	case "tether_browsing_display":
		return ct.Result
	case "tether_quote":
		s := "> " + strings.ReplaceAll(strings.TrimSpace(ct.Text), "\n", "\n> ")
		if ct.Title != "" || ct.URL != "" {
			s += "\n\n— " + strings.TrimSpace(ct.Title+" "+ct.URL)
		}
		return s
	}
	if len(ct.Parts) == 0 {
		return ct.Text
	}
	var parts []string
	for _, p := range ct.Parts {
		var s string
		if json.Unmarshal(p, &s) == nil {
			parts = append(parts, s)
			continue
		}
		var obj struct {
			ContentType string `json:"content_type"`
			Text        string `json:"text"`
		}
		if json.Unmarshal(p, &obj) == nil {
			switch {
			case obj.Text != "":
				parts = append(parts, obj.Text)
			case strings.Contains(obj.ContentType, "image"):
				parts = append(parts, "[image]")
			case obj.ContentType != "":
				parts = append(parts, "["+obj.ContentType+"]")
			}
		}
	}
	return strings.Join(parts, "\n\n")
}

func codeLanguage(l string) string {
	if l == "unknown" {
		return ""
	}
	return strings.Map(func(r rune) rune {
		if r == '`' || r == '\n' || r == ' ' {
			return -1
		}
		return r
	}, l)
}

// thought is one piece of reasoning waiting for the answer it belongs to,
// linked to the pieces before it. Branches share their common part.
type thought struct {
	prev *thought
	text string
	size int // bytes of the whole chain, separators included
}

func (t *thought) add(s string) *thought {
	n := &thought{prev: t, text: s, size: len(s)}
	if t != nil {
		n.size += t.size + 2
	}
	return n
}

// join is the chain's text, pieces separated by blank lines. Past limit
// bytes the oldest pieces are left out, and a line says how much.
func (t *thought) join(limit int) string {
	var parts []string
	n := 0
	for x := t; x != nil; x = x.prev {
		if n+len(x.text) > limit-200 { // room for the note
			break
		}
		parts = append(parts, x.text)
		n += len(x.text) + 2
	}
	if len(parts) > 0 {
		slices.Reverse(parts)
	}
	s := strings.Join(parts, "\n\n")
	if left := t.size - len(s); left > 0 {
		s = strings.TrimSpace(fmt.Sprintf("[%s bytes of earlier reasoning left out: past the %s-byte limit for a message]\n\n%s",
			workspace.Commas(int64(left)), workspace.Commas(MaxMessageBytes), s))
	}
	return s
}
