// Package chat holds Airlock's domain types. It imports nothing else of ours:
// every other package depends on it, never the reverse.
package chat

import (
	"airlock/backend/uitext"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// Role is who wrote a message.
type Role string

const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Status is where a message is in its life. Only assistant messages stream.
type Status string

const (
	StatusStreaming   Status = "streaming"   // tokens are still arriving
	StatusComplete    Status = "complete"    // the model finished
	StatusInterrupted Status = "interrupted" // stopped by the user, or the app died mid-answer
	StatusError       Status = "error"       // the provider or network failed; ErrorCode/ErrorMessage say how
)

// Kind tells ordinary text apart from the user messages that carry tool results.
type Kind string

const (
	KindText        Kind = "text"
	KindToolResults Kind = "tool_results"
)

// Usage is the token accounting a provider reports for one answer.
type Usage struct {
	PromptTokens     int `json:"promptTokens"`
	CompletionTokens int `json:"completionTokens"`
	TotalTokens      int `json:"totalTokens"`
	// CacheReadTokens and CacheWriteTokens are the prompt tokens a provider
	// read from or wrote to its prompt cache (Anthropic's
	// cache_read_input_tokens and cache_creation_input_tokens); 0 when it
	// said nothing.
	CacheReadTokens  int `json:"cacheReadTokens,omitempty"`
	CacheWriteTokens int `json:"cacheWriteTokens,omitempty"`
}

// Thought is a reasoning block a provider signed (Anthropic's thinking and
// redacted_thinking blocks), kept as it came to be sent back with the
// answer's tool calls: the API refuses a tool-use turn whose thinking was
// dropped or changed.
type Thought struct {
	Text      string `json:"text,omitempty"`
	Signature string `json:"signature,omitempty"`
	// Redacted is a redacted_thinking block's data: opaque, never shown.
	Redacted string `json:"redacted,omitempty"`
	// Provider is the ID of the provider that signed it: a signature is
	// only good with the provider that made it (another one refuses the
	// request), so a chat that changes provider stops sending it.
	Provider string `json:"provider,omitempty"`
}

// EncodeThoughts is the stored form of an answer's thoughts ("" for none).
func EncodeThoughts(ts []Thought) string {
	if len(ts) == 0 {
		return ""
	}
	b, _ := json.Marshal(ts) // strings only: cannot fail
	return string(b)
}

// SignedThoughts are the message's thoughts (nil when none, or unreadable).
func (m Message) SignedThoughts() []Thought {
	var ts []Thought
	if m.Thoughts != "" && json.Unmarshal([]byte(m.Thoughts), &ts) != nil {
		return nil
	}
	return ts
}

// Chat is one conversation. Times are Unix milliseconds (easy for the UI).
type Chat struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	CreatedAt int64  `json:"createdAt"`
	UpdatedAt int64  `json:"updatedAt"` // last activity: sorts the sidebar
	Pinned    bool   `json:"pinned"`    // pinned chats come first in the sidebar
	// LeafID is the last message of the active path: the version of the
	// conversation that is shown and sent to the model ("" when empty).
	LeafID string `json:"leafId"`
	ChatOptions
	ChatSetup
	// ToolModeOwn and ParadigmOwn: the chat chose its tool mode (its call
	// format) itself, in Chat options, and keeps it. Otherwise ToolMode
	// (Paradigm) is its agent's as the agent is now, read at every turn.
	ToolModeOwn bool `json:"toolModeOwn"`
	ParadigmOwn bool `json:"paradigmOwn"`
}

// ChatOptions are the per-chat choices of how tools are offered and read.
type ChatOptions struct {
	Paradigm        string `json:"paradigm"`        // "json" (default), "xml" or "vcp"
	RecognizeOthers bool   `json:"recognizeOthers"` // also accept formats other model families emit
	WorkspaceKind   string `json:"workspaceKind"`   // "scratch" (default), "folder" or "overlay"
	WorkspaceDir    string `json:"workspaceDir"`    // the real folder, for folder and overlay
	// MCPServers names the MCP servers whose tools the chat offers; nil
	// means every enabled server, so one added later shows up.
	MCPServers []string `json:"mcpServers"`
	ToolMode   ToolMode `json:"toolMode"` // how the model calls tools
}

// ToolMode is how a chat's model calls tools.
type ToolMode string

const (
	ToolModeText   ToolMode = "text"   // written as text in the chat's paradigm
	ToolModeNative ToolMode = "native" // the API's tools parameter and tool_calls
	ToolModeAuto   ToolMode = "auto"   // native where the provider and model accept it, text otherwise
)

// ModelMode is what Auto knows about one provider's model: how it learned
// the model calls tools (native or text, "" while nothing is known), why
// and when, and the user's override ("" = none).
type ModelMode struct {
	ProviderID string   `json:"providerId"`
	Model      string   `json:"model"`
	Learned    ToolMode `json:"learned"`
	Reason     string   `json:"reason"`
	LearnedAt  int64    `json:"learnedAt"`
	Override   ToolMode `json:"override"`
}

// Effective is how Auto calls tools with the model: the override, what it
// learned, or native to find out.
func (m ModelMode) Effective() ToolMode {
	switch {
	case m.Override != "":
		return m.Override
	case m.Learned != "":
		return m.Learned
	}
	return ToolModeNative
}

// ParseToolMode reads a tool mode; ok is false for anything else.
func ParseToolMode(s string) (ToolMode, bool) {
	switch m := ToolMode(s); m {
	case ToolModeText, ToolModeNative, ToolModeAuto:
		return m, true
	}
	return "", false
}

// DefaultChatOptions is what a new chat starts with.
func DefaultChatOptions() ChatOptions {
	return ChatOptions{Paradigm: "json", RecognizeOthers: true, WorkspaceKind: "scratch", ToolMode: ToolModeAuto}
}

// MaxChatServers bounds a chat's list of MCP servers (an import file
// could hold any number).
const MaxChatServers = 256

// CheckServerList says what is wrong with a chat's list of MCP server
// names, or nil. Names that are not configured (any more) are allowed: the
// chat simply offers no tools for them.
func CheckServerList(names []string) error {
	if len(names) > MaxChatServers {
		return fmt.Errorf("a chat can name at most %d MCP servers, not %d", MaxChatServers, len(names))
	}
	for _, n := range names {
		if n == "" || len(n) > 64 {
			return fmt.Errorf("%q is not an MCP server name (1 to 64 characters)", n)
		}
	}
	return nil
}

// Message is one turn of a chat.
//
// A chat's messages form a tree: ParentID is the message before this one on
// its conversation path ("" for the first). Messages with the same parent and
// role are versions of one turn (an edited question, a regenerated answer);
// the chat's LeafID picks which path is active.
type Message struct {
	ID           string `json:"id"`
	ChatID       string `json:"chatId"`
	ParentID     string `json:"parentId"`
	Role         Role   `json:"role"`
	Kind         Kind   `json:"kind"`
	Content      string `json:"content"`
	Reasoning    string `json:"reasoning"`
	Status       Status `json:"status"`
	ErrorCode    string `json:"errorCode,omitempty"`
	ErrorMessage string `json:"errorMessage,omitempty"`
	// ErrorText is ErrorMessage coded for the UI's language, when coded.
	ErrorText *uitext.Text `json:"errorText,omitempty"`
	Model     string       `json:"model,omitempty"`
	Usage     Usage        `json:"usage"`
	// Thoughts are the answer's signed reasoning blocks as JSON (see
	// EncodeThoughts), to send back with its native tool calls (Anthropic
	// Messages); "" for other providers. Text, so a Message stays comparable.
	Thoughts  string `json:"-"`
	CreatedAt int64  `json:"createdAt"`
	UpdatedAt int64  `json:"updatedAt"`

	// Versions and Version are filled in when a message is read: how many
	// versions this turn has (siblings with the same parent and role,
	// itself included) and which one this is, from 1, oldest first. They
	// are not stored; 0 means "not computed".
	Versions int `json:"versions,omitempty"`
	Version  int `json:"version,omitempty"`

	// Attachments are the files attached to the message (attachment.go),
	// without their bytes; filled in when a message is read.
	Attachments []Attachment `json:"attachments,omitempty"`
}

// SearchHit is one search result: a message, or a tool call of a message,
// whose text matches the query.
type SearchHit struct {
	ChatID    string `json:"chatId"`
	ChatTitle string `json:"chatTitle"`
	MessageID string `json:"messageId"`
	Role      Role   `json:"role"`
	Kind      string `json:"kind"`             // HitMessage or HitToolCall
	CallID    string `json:"callId,omitempty"` // the tool call, for HitToolCall
	// Snippet is a short plain-text excerpt around the match. Matched words
	// are wrapped in MarkStart ... MarkEnd (U+0002, U+0003), characters
	// that never occur in indexed text and mean nothing in HTML: render the
	// text as text and turn the marked ranges into highlights.
	Snippet   string `json:"snippet"`
	CreatedAt int64  `json:"createdAt"`
	// Attachments are the names of the message's attached files.
	Attachments []string `json:"attachments,omitempty"`
	// Tools names the tools whose results a tool-results message carries
	// ("" for any other hit); its snippet is then the results' text without
	// the protocol's markup.
	Tools string `json:"tools,omitempty"`
}

// Search hit kinds and snippet highlight markers.
const (
	HitMessage  = "message"
	HitToolCall = "tool_call"
	MarkStart   = "\u0002"
	MarkEnd     = "\u0003"
)

// Provider is an OpenAI-compatible endpoint. Demo marks the built-in offline
// demo server; its BaseURL is filled in at run time.
type Provider struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	BaseURL string `json:"baseUrl"`
	APIKey  string `json:"apiKey"`
	Model   string `json:"model"`
	Demo    bool   `json:"demo"`
	// Kind is the wire the provider speaks: APIOpenAI ("" reads as it) or
	// APIAnthropic.
	Kind string `json:"kind"`
	// ThinkingBudget, on the Anthropic wire, turns extended thinking on:
	// the tokens the model may think before answering (0 = off, else
	// MinThinkingBudget to MaxThinkingBudget).
	ThinkingBudget int `json:"thinkingBudget"`
}

// Bounds of Provider.ThinkingBudget (Anthropic takes 1,024 and more).
const (
	MinThinkingBudget = 1024
	MaxThinkingBudget = 128000
)

// Provider kinds: the API a provider speaks.
const (
	APIOpenAI    = "openai"    // OpenAI-compatible chat completions
	APIAnthropic = "anthropic" // Anthropic Messages (/v1/messages)
)

// APIKind is the provider's kind, "" read as APIOpenAI.
func (p Provider) APIKind() string {
	if p.Kind == APIAnthropic {
		return APIAnthropic
	}
	return APIOpenAI
}

// Domain errors. Adapters wrap these so callers can test with errors.Is and
// the UI gets a stable code.
var (
	ErrNotFound = errors.New("not found")
	ErrInvalid  = errors.New("invalid input")
	ErrBusy     = errors.New("busy")
)

// Error is an error with a stable machine code and a sentence for people.
// Text, when set, is the sentence coded for translation (Message is its
// English).
type Error struct {
	Code    string       `json:"code"`
	Message string       `json:"message"`
	Text    *uitext.Text `json:"text,omitempty"`
	Err     error        `json:"-"`
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

// UIText is the sentence: coded when Text is set, else the Message as it is.
func (e *Error) UIText() uitext.Text {
	if e.Text != nil {
		return *e.Text
	}
	return uitext.Plain(e.Message)
}

// Coded builds an *Error whose sentence is a coded Text.
func Coded(code string, wrapped error, t uitext.Text) *Error {
	return &Error{Code: code, Message: t.English, Text: &t, Err: wrapped}
}

// Errorf builds an *Error wrapping a sentinel (or nil).
func Errorf(code string, wrapped error, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Err: wrapped}
}

// Now is the clock in Unix milliseconds.
func Now() int64 { return time.Now().UnixMilli() }

var idCounter atomic.Uint32

// NewID returns a unique, time-ordered identifier: 12 hex digits of
// milliseconds, 4 of a process counter, 8 random. IDs sort by creation time,
// and are globally unique so imported chats never collide.
func NewID() string {
	var r [4]byte
	_, _ = rand.Read(r[:])
	return fmt.Sprintf("%012x%04x%s", time.Now().UnixMilli(), idCounter.Add(1)&0xffff, hex.EncodeToString(r[:]))
}

// Settings are the user's global preferences, kept in the store.
type Settings struct {
	ActiveProviderID string  `json:"activeProviderId"`
	SystemPrompt     string  `json:"systemPrompt"`
	Temperature      float64 `json:"temperature"` // 0..2; below 0 means "provider default"
	Language         string  `json:"language"`    // "auto" (follow the OS), "en", "zh"
	Theme            string  `json:"theme"`       // "system", "light", "dark"

	AutoContinue       bool `json:"autoContinue"`       // send tool results to the model by itself
	MaxTurns           int  `json:"maxTurns"`           // model turns per user message before Airlock stops the loop
	ToolTimeoutSeconds int  `json:"toolTimeoutSeconds"` // per tool run
	// ToolMode is the tool mode of new chats.
	ToolMode ToolMode `json:"toolMode"`
}

// DefaultSettings is what a first run starts with.
func DefaultSettings() Settings {
	return Settings{ActiveProviderID: DemoProviderID, Temperature: -1, Language: "auto", Theme: "system",
		AutoContinue: true, MaxTurns: 25, ToolTimeoutSeconds: 30, ToolMode: ToolModeAuto}
}

// Well-known provider IDs: the built-in demo server, and the one assembled
// from AIRLOCK_BASE_URL/AIRLOCK_API_KEY/AIRLOCK_MODEL (never stored).
const (
	DemoProviderID = "demo"
	EnvProviderID  = "env"
)

// Summary is a summary of the start of a conversation that stands for it
// when the model is asked (the messages themselves stay). Covered messages
// of the active path, up to ThroughID, are folded into it.
type Summary struct {
	ID           string `json:"id"`
	ChatID       string `json:"chatId"`
	ThroughID    string `json:"throughId"`
	Covered      int    `json:"covered"`
	Content      string `json:"content"`
	Model        string `json:"model"`
	TokensBefore int    `json:"tokensBefore"`
	TokensAfter  int    `json:"tokensAfter"`
	Version      int    `json:"version"` // 1, 2, … in the chat
	State        string `json:"state"`   // SummaryActive, SummaryUndone or SummaryReplaced
	CreatedAt    int64  `json:"createdAt"`
}

// Summary states.
const (
	SummaryActive   = "active"
	SummaryUndone   = "undone"
	SummaryReplaced = "replaced" // a newer summary took its place
)

// Compaction is whether a chat's older messages are folded into a summary
// when they no longer fit the model's window.
type Compaction string

const (
	CompactAuto Compaction = "auto" // by itself (the default)
	CompactAsk  Compaction = "ask"  // the user is told and decides
	CompactOff  Compaction = "off"  // never: older results are shortened and old messages left out
)

// ParseCompaction reads a compaction mode; ok is false for anything else.
func ParseCompaction(s string) (Compaction, bool) {
	switch m := Compaction(s); m {
	case CompactAuto, CompactAsk, CompactOff:
		return m, true
	}
	return "", false
}
