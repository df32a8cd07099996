// Package export takes chats out of Airlock and brings them back: a
// lossless, versioned JSON format (SCHEMA.md), readable Markdown, a
// self-contained HTML page, and importers for Airlock JSON and ChatGPT's
// conversations.json. The app and airlockctl both use it.
//
//	b, _ := export.Build(ctx, st, ids)     // nil ids: every chat not in the Trash
//	export.Write(w, b, "html")             // or "md", "json"
//	b, src, _ := export.Read(r)            // Airlock JSON or ChatGPT, detected
//	report, _ := export.Import(ctx, st, b) // one transaction, idempotent
package export

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"airlock/backend/chat"
	"airlock/backend/store"
	"airlock/backend/workspace"
)

// Format and Version identify an Airlock export. A reader refuses other
// formats and newer versions; a change that older readers would misread
// gets a new version.
const (
	Format  = "airlock-export"
	Version = 1
)

// Bundle is an Airlock export: the JSON document of SCHEMA.md. Field order
// here is the key order in the file.
type Bundle struct {
	Format     string `json:"format"`
	Version    int    `json:"version"`
	ExportedAt int64  `json:"exportedAt"` // Unix milliseconds
	Chats      []Chat `json:"chats"`
}

// Chat is one conversation with everything it holds.
type Chat struct {
	ID        string  `json:"id"`
	Title     string  `json:"title"`
	CreatedAt int64   `json:"createdAt"`
	UpdatedAt int64   `json:"updatedAt"`
	Pinned    bool    `json:"pinned"`
	LeafID    string  `json:"leafId"` // the last message of the active path; "" when empty
	Options   Options `json:"options"`
	// Messages holds every version of every turn, oldest first.
	Messages []Message `json:"messages"`
	Calls    []Call    `json:"calls"`
	// ScratchFiles are the files of the chat's scratch workspace.
	ScratchFiles []File `json:"scratchFiles"`
	// Audit is the chat's audit trail: every decision on its calls, oldest
	// first.
	Audit []AuditRow `json:"audit"`
	// Agent is the chat's agent by value (no provider, never a key); null
	// in exports made before agents existed.
	Agent *chat.Agent `json:"agent"`
}

// Options are how the chat offers and reads tool calls, and where its tools
// work.
type Options struct {
	Paradigm        string `json:"paradigm"`
	RecognizeOthers bool   `json:"recognizeOthers"`
	WorkspaceKind   string `json:"workspaceKind"`
	WorkspaceDir    string `json:"workspaceDir"`
	// MCPServers names the MCP servers whose tools the chat offers; null
	// means every enabled one. Only names: a server's settings stay behind.
	MCPServers []string `json:"mcpServers"`
	// ToolMode is how the model calls tools: text, native or auto ("" in
	// exports made before it existed: text).
	ToolMode string `json:"toolMode"`
	// Model is the model the chat talks to. Provider ids are local, so an
	// imported chat asks the active provider for it (the model chip shows it
	// and switches); ToolToggles are the chat's own tool toggles.
	Model       string          `json:"model"`
	ToolToggles map[string]bool `json:"toolToggles"`
}

// Message is one message (one version of a turn).
type Message struct {
	ID           string `json:"id"`
	ParentID     string `json:"parentId"`
	Role         string `json:"role"`
	Kind         string `json:"kind"`
	Content      string `json:"content"`
	Reasoning    string `json:"reasoning"`
	Status       string `json:"status"`
	ErrorCode    string `json:"errorCode"`
	ErrorMessage string `json:"errorMessage"`
	Model        string `json:"model"`
	Usage        Usage  `json:"usage"`
	CreatedAt    int64  `json:"createdAt"`
	UpdatedAt    int64  `json:"updatedAt"`
	// Attachments are the files attached to the message, with their
	// bytes (absent when there are none).
	Attachments []Attachment `json:"attachments,omitempty"`
}

// Attachment is a file attached to a message, bytes included (base64).
type Attachment struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	MIME   string `json:"mime"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
	Data   []byte `json:"data"`
}

// Usage is a provider's token accounting for one answer.
type Usage struct {
	PromptTokens     int `json:"promptTokens"`
	CompletionTokens int `json:"completionTokens"`
	TotalTokens      int `json:"totalTokens"`
}

// Call is a tool call a message proposed, with its decision and result.
type Call struct {
	ID          string          `json:"id"`
	ModelCallID string          `json:"modelCallId"`
	MessageID   string          `json:"messageId"`
	Index       int             `json:"index"`
	Name        string          `json:"name"`
	Arguments   json.RawMessage `json:"arguments"`
	Edited      json.RawMessage `json:"edited"` // null: not edited
	Raw         string          `json:"raw"`
	Format      string          `json:"format"`
	State       string          `json:"state"`
	Problem     string          `json:"problem"`
	Guard       string          `json:"guard"`
	Decision    *Decision       `json:"decision"` // null: not decided
	Result      string          `json:"result"`
	ResultState string          `json:"resultStatus"`
	Truncated   bool            `json:"truncated"`
	StartedAt   int64           `json:"startedAt"`
	FinishedAt  int64           `json:"finishedAt"`
	Preview     json.RawMessage `json:"preview"` // null: none
	CreatedAt   int64           `json:"createdAt"`
	UpdatedAt   int64           `json:"updatedAt"`
}

// Decision is who approved or denied a call, when, and why.
type Decision struct {
	By     string `json:"by"`
	At     int64  `json:"at"`
	Reason string `json:"reason"`
}

// File is a file or directory of a scratch workspace.
type File struct {
	Path     string `json:"path"`
	IsDir    bool   `json:"isDir"`
	Mode     uint32 `json:"mode"`     // permission bits
	ModTime  int64  `json:"modTime"`  // Unix nanoseconds
	Encoding string `json:"encoding"` // "utf-8" or "base64"
	Content  string `json:"content"`
}

// Reader is what Build reads chats from (*store.Store).
type Reader interface {
	ReadChats(ctx context.Context, ids []string) ([]store.ChatData, error)
}

// Build exports chats (nil or empty ids: every chat not in the Trash, in sidebar order)
// from one consistent snapshot. ExportedAt is now; set it for
// reproducible output. Nothing outside the chats is included: no
// providers, API keys, settings or rules (a chat's audit trail names the
// rules that decided, as text).
func Build(ctx context.Context, st Reader, ids []string) (Bundle, error) {
	if len(ids) == 0 {
		ids = nil
	}
	// Each chat once, in the order first asked for.
	seen := map[string]bool{}
	unique := ids[:0:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			unique = append(unique, id)
		}
	}
	if ids != nil {
		ids = unique
	}
	data, err := st.ReadChats(ctx, ids)
	if err != nil {
		return Bundle{}, err
	}
	b := Bundle{Format: Format, Version: Version, ExportedAt: chat.Now(), Chats: make([]Chat, 0, len(data))}
	for _, d := range data {
		b.Chats = append(b.Chats, fromStore(d))
	}
	return b, nil
}

// Write writes a bundle as "json", "md" (or "markdown") or "html".
func Write(w io.Writer, b Bundle, format string, opts ...Option) error {
	switch strings.ToLower(format) {
	case "json":
		return WriteJSON(w, b)
	case "md", "markdown":
		return WriteMarkdown(w, b, opts...)
	case "html":
		return WriteHTML(w, b, opts...)
	}
	return chat.Errorf("bad_format", chat.ErrInvalid, "unknown export format %q (want md, html or json)", format)
}

// Extension is the file name extension for a format ("md", "html", "json").
func Extension(format string) string {
	if strings.ToLower(format) == "markdown" {
		return "md"
	}
	return strings.ToLower(format)
}

// Option adjusts the Markdown and HTML writers.
type Option func(*options)

type options struct {
	loc   *time.Location
	links *mdLinks // Markdown written to a file: where its attachments are (mdfiles.go)
}

// In shows times in a time zone (default: the local one).
func In(loc *time.Location) Option { return func(o *options) { o.loc = loc } }

func makeOptions(opts []Option) options {
	o := options{loc: time.Local}
	for _, f := range opts {
		f(&o)
	}
	return o
}

// fromStore converts a stored chat. A snapshot has nothing in flight: a
// message still streaming is exported as interrupted, a call approved or
// running as interrupted (what the app itself makes of them on restart).
func fromStore(d store.ChatData) Chat {
	c := Chat{ID: d.Chat.ID, Title: d.Chat.Title, CreatedAt: d.Chat.CreatedAt, UpdatedAt: d.Chat.UpdatedAt,
		Pinned: d.Chat.Pinned, LeafID: d.Chat.LeafID,
		Options: Options{Paradigm: d.Chat.Paradigm, RecognizeOthers: d.Chat.RecognizeOthers,
			WorkspaceKind: d.Chat.WorkspaceKind, WorkspaceDir: d.Chat.WorkspaceDir, MCPServers: d.Chat.MCPServers,
			ToolMode: string(d.Chat.ToolMode), Model: d.Chat.Model, ToolToggles: d.Chat.ToolToggles},
		Messages: make([]Message, 0, len(d.Messages)), Calls: make([]Call, 0, len(d.Calls)),
		ScratchFiles: make([]File, 0, len(d.Scratch)), Audit: make([]AuditRow, 0, len(d.Audit))}
	// The trail rows about the chat's calls (and runs from the Tool lab):
	// rows about calls of messages deleted since stay in the local trail,
	// but nothing in the file could vouch for them, and an import refuses
	// rows about calls the file does not bring.
	calls := make(map[string]bool, len(d.Calls))
	for _, cl := range d.Calls {
		calls[cl.ID] = true
	}
	for _, e := range d.Audit {
		if e.CallID == "" || calls[e.CallID] {
			c.Audit = append(c.Audit, auditRow(e))
		}
	}
	if d.Agent != nil {
		ag := *d.Agent
		ag.ProviderID, ag.CreatedAt, ag.UpdatedAt = "", 0, 0 // the provider is local; the ID finds it again on import
		c.Agent = &ag
	}
	for _, m := range d.Messages {
		st := m.Status
		if st == chat.StatusStreaming {
			st = chat.StatusInterrupted
		}
		c.Messages = append(c.Messages, Message{ID: m.ID, ParentID: m.ParentID, Role: string(m.Role), Kind: string(m.Kind),
			Content: m.Content, Reasoning: m.Reasoning, Status: string(st), ErrorCode: m.ErrorCode,
			ErrorMessage: m.ErrorMessage, Model: m.Model,
			Usage:     Usage{m.Usage.PromptTokens, m.Usage.CompletionTokens, m.Usage.TotalTokens},
			CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt, Attachments: exportFiles(d.Files[m.ID])})
	}
	for _, cl := range d.Calls {
		state := cl.State
		if state == chat.CallApproved || state == chat.CallRunning {
			state = chat.CallInterrupted
		}
		x := Call{ID: cl.ID, ModelCallID: cl.ModelCallID, MessageID: cl.MessageID, Index: cl.Index, Name: cl.Name,
			Arguments: jsonValue(cl.Arguments, "{}"), Edited: jsonValue(cl.Edited, "null"), Raw: cl.Raw, Format: cl.Format,
			State: string(state), Problem: cl.Problem, Guard: cl.Guard, Result: cl.Result,
			ResultState: string(cl.ResultState), Truncated: cl.Truncated, StartedAt: cl.StartedAt,
			FinishedAt: cl.FinishedAt, Preview: jsonValue(cl.Preview, "null"), CreatedAt: cl.CreatedAt, UpdatedAt: cl.UpdatedAt}
		if cl.DecidedBy != "" || cl.DecidedAt != 0 || cl.Reason != "" {
			x.Decision = &Decision{By: cl.DecidedBy, At: cl.DecidedAt, Reason: cl.Reason}
		}
		c.Calls = append(c.Calls, x)
	}
	for _, f := range d.Scratch {
		x := File{Path: f.Path, IsDir: f.IsDir, Mode: uint32(f.Mode.Perm()), ModTime: f.ModTime.UnixNano(), Encoding: "utf-8"}
		if utf8.Valid(f.Content) {
			x.Content = string(f.Content)
		} else {
			x.Encoding, x.Content = "base64", base64.StdEncoding.EncodeToString(f.Content)
		}
		c.ScratchFiles = append(c.ScratchFiles, x)
	}
	return c
}

// jsonValue is a stored JSON text as a JSON value: empty is def; text that
// is not JSON (never written by Airlock, but possible in an old or edited
// database) becomes a JSON string, so the export stays valid.
func jsonValue(raw json.RawMessage, def string) json.RawMessage {
	s := strings.TrimSpace(string(raw))
	if s == "" {
		return json.RawMessage(def)
	}
	if !json.Valid([]byte(s)) {
		q, _ := json.Marshal(s)
		return q
	}
	return json.RawMessage(s)
}

// storedJSON is the inverse of jsonValue: compact JSON text, "" for null.
func storedJSON(v json.RawMessage) (json.RawMessage, error) {
	s := strings.TrimSpace(string(v))
	if s == "" || s == "null" {
		return nil, nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(s)); err != nil {
		return nil, err
	}
	return json.RawMessage(buf.Bytes()), nil
}

// toStore converts a validated chat for the store.
func toStore(c Chat) (store.ChatData, error) {
	d := store.ChatData{Chat: chat.Chat{ID: c.ID, Title: c.Title, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt,
		Pinned: c.Pinned, LeafID: c.LeafID,
		ChatOptions: chat.ChatOptions{Paradigm: c.Options.Paradigm, RecognizeOthers: c.Options.RecognizeOthers,
			WorkspaceKind: c.Options.WorkspaceKind, WorkspaceDir: c.Options.WorkspaceDir, MCPServers: c.Options.MCPServers,
			ToolMode: chat.ToolModeText}, ChatSetup: chat.ChatSetup{Model: c.Options.Model, ToolToggles: c.Options.ToolToggles}}, Agent: c.Agent}
	if m, ok := chat.ParseToolMode(c.Options.ToolMode); ok {
		d.Chat.ToolMode = m
	}
	// A folder named in a file is not one the user picked on this computer
	// (it may be "/" or relative to wherever Airlock runs): the chat comes
	// back with a scratch workspace; Import says so.
	if d.Chat.WorkspaceKind != "scratch" {
		d.Chat.WorkspaceKind, d.Chat.WorkspaceDir = "scratch", ""
	}
	for _, m := range c.Messages {
		d.Messages = append(d.Messages, chat.Message{ID: m.ID, ChatID: c.ID, ParentID: m.ParentID, Role: chat.Role(m.Role),
			Kind: chat.Kind(m.Kind), Content: m.Content, Reasoning: m.Reasoning, Status: chat.Status(m.Status),
			ErrorCode: m.ErrorCode, ErrorMessage: m.ErrorMessage, Model: m.Model,
			Usage:     chat.Usage{PromptTokens: m.Usage.PromptTokens, CompletionTokens: m.Usage.CompletionTokens, TotalTokens: m.Usage.TotalTokens},
			CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt})
		files, err := importFiles(m.Attachments)
		if err != nil {
			return d, fmt.Errorf("message %s: %w", m.ID, err)
		}
		if len(files) > 0 {
			if d.Files == nil {
				d.Files = map[string][]chat.AttachmentData{}
			}
			d.Files[m.ID] = files
		}
	}
	for i, cl := range c.Calls {
		args, err := storedJSON(cl.Arguments)
		if err == nil && args == nil {
			args = json.RawMessage("{}")
		}
		edited, err2 := storedJSON(cl.Edited)
		preview, err3 := storedJSON(cl.Preview)
		for _, e := range []error{err, err2, err3} {
			if e != nil {
				return d, fmt.Errorf("calls[%d]: %w", i, e)
			}
		}
		x := chat.Call{ID: cl.ID, ModelCallID: cl.ModelCallID, ChatID: c.ID, MessageID: cl.MessageID, Index: cl.Index,
			Name: cl.Name, Arguments: args, Edited: edited, Raw: cl.Raw, Format: cl.Format, State: chat.CallState(cl.State),
			Problem: cl.Problem, Guard: cl.Guard, Result: cl.Result, ResultState: chat.ToolStatus(cl.ResultState),
			Truncated: cl.Truncated, StartedAt: cl.StartedAt, FinishedAt: cl.FinishedAt, Preview: preview,
			CreatedAt: cl.CreatedAt, UpdatedAt: cl.UpdatedAt}
		if cl.Decision != nil {
			x.DecidedBy, x.DecidedAt, x.Reason = cl.Decision.By, cl.Decision.At, cl.Decision.Reason
		}
		d.Calls = append(d.Calls, x)
	}
	for i, f := range c.ScratchFiles {
		p, err := workspace.CleanPath(f.Path) // Validate refused what does not clean
		if err != nil {
			return d, fmt.Errorf("scratchFiles[%d].path: %w", i, err)
		}
		x := workspace.File{Path: p, IsDir: f.IsDir, Mode: fs.FileMode(f.Mode).Perm(), ModTime: time.Unix(0, f.ModTime)}
		switch f.Encoding {
		case "", "utf-8":
			x.Content = []byte(f.Content)
		case "base64":
			b, err := base64.StdEncoding.DecodeString(f.Content)
			if err != nil {
				return d, fmt.Errorf("scratchFiles[%d].content: not valid base64: %w", i, err)
			}
			x.Content = b
		}
		d.Scratch = append(d.Scratch, x)
	}
	for i, r := range c.Audit {
		e, err := r.entry(c.ID)
		if err != nil {
			return d, fmt.Errorf("audit[%d]: %w", i, err)
		}
		d.Audit = append(d.Audit, e)
	}
	return d, nil
}

// ActivePath returns the chat's active path (the messages from the first to
// LeafID), each with how many versions its turn has and which one it is.
func (c Chat) ActivePath() []PathMessage {
	byID := make(map[string]int, len(c.Messages))
	type key struct{ parent, role string }
	siblings := map[key][]int{}
	for i, m := range c.Messages {
		byID[m.ID] = i
		k := key{m.ParentID, m.Role}
		siblings[k] = append(siblings[k], i)
	}
	for _, group := range siblings {
		sort.SliceStable(group, func(a, b int) bool {
			ma, mb := c.Messages[group[a]], c.Messages[group[b]]
			if ma.CreatedAt != mb.CreatedAt {
				return ma.CreatedAt < mb.CreatedAt
			}
			return ma.ID < mb.ID
		})
	}
	var rev []PathMessage
	for id := c.LeafID; id != "" && len(rev) <= len(c.Messages); {
		i, ok := byID[id]
		if !ok {
			break
		}
		m := c.Messages[i]
		group := siblings[key{m.ParentID, m.Role}]
		pm := PathMessage{Message: m, Versions: len(group)}
		for v, j := range group {
			if j == i {
				pm.Version = v + 1
			}
		}
		rev = append(rev, pm)
		id = m.ParentID
	}
	out := make([]PathMessage, len(rev))
	for i, m := range rev {
		out[len(rev)-1-i] = m
	}
	return out
}

// PathMessage is a message of the active path with its version numbers.
type PathMessage struct {
	Message
	Versions, Version int
}

// callsByMessage groups a chat's calls by message, in index order.
func (c Chat) callsByMessage() map[string][]Call {
	out := map[string][]Call{}
	for _, cl := range c.Calls {
		out[cl.MessageID] = append(out[cl.MessageID], cl)
	}
	for _, cs := range out {
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].Index < cs[j].Index })
	}
	return out
}
