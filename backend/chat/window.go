package chat

// Window is what is known of a model's context window: how many tokens a
// request (prompt and answer together) may hold, and where that came from.
type Window struct {
	// Tokens is the window a request must fit in: the one the server runs
	// the model with when it says so (Loaded), else the model's own.
	Tokens int `json:"tokens"`
	// ModelMax is the most the model itself can take, when the server says
	// (it may run it with less: see Loaded). 0 = not said.
	ModelMax int `json:"modelMax"`
	// Loaded is the window a loaded model runs with (Ollama, LM Studio,
	// llama.cpp), 0 when the server does not say or the model is not loaded.
	Loaded int `json:"loaded"`
	// MaxOutput is the most tokens one answer may have, when known.
	MaxOutput int `json:"maxOutput"`
	// Source says where Tokens came from: "server:ollama", "server:lmstudio",
	// "server:llama.cpp", "server:vllm", "server:openrouter", "server:list"
	// (another server's model list), "table" (well-known models), "user",
	// "learned:overflow" (an overflow error's own numbers); "" = unknown.
	Source string `json:"source"`
	// Note is a sentence for people when something deserves saying, e.g.
	// that Ollama runs the model with less than it can take, and how to
	// raise it.
	Note string `json:"note"`
}

// Window sources that are not a server's.
const (
	WindowFromTable    = "table"
	WindowFromUser     = "user"
	WindowFromOverflow = "learned:overflow"
)

// ModelWindow is everything remembered about one provider's model window:
// what was discovered, what an overflow taught, and what the user set.
type ModelWindow struct {
	ProviderID string `json:"providerId"`
	Model      string `json:"model"`
	// Discovered is the last discovery's result (Source "" when never).
	Discovered   Window `json:"discovered"`
	DiscoveredAt int64  `json:"discoveredAt"`
	// Learned is the window an overflow error stated, 0 when none.
	Learned       int    `json:"learned"`
	LearnedReason string `json:"learnedReason"`
	LearnedAt     int64  `json:"learnedAt"`
	// UserWindow and UserMaxOutput are what the user set (0 = not set).
	UserWindow    int   `json:"userWindow"`
	UserMaxOutput int   `json:"userMaxOutput"`
	UpdatedAt     int64 `json:"updatedAt"`
}

// Effective is the window to fit requests in, and its source: the user's,
// else what an overflow error stated (the server's own refusal), else what
// was discovered. 0 and "" when nothing is known (the caller picks a safe
// default).
func (m ModelWindow) Effective() (int, string) {
	switch {
	case m.UserWindow > 0:
		return m.UserWindow, WindowFromUser
	case m.Learned > 0 && (m.Discovered.Tokens == 0 || m.Learned < m.Discovered.Tokens):
		return m.Learned, WindowFromOverflow
	case m.Discovered.Tokens > 0:
		return m.Discovered.Tokens, m.Discovered.Source
	}
	return 0, ""
}

// MaxOutput is the answer budget to send as max_tokens: the user's, 0 when
// not set (the server's default applies).
func (m ModelWindow) MaxOutput() int { return m.UserMaxOutput }

// Window limits for what a user or a server may state: anything outside is
// not a context window (a typo, or a server's garbage).
const (
	MinWindow = 256
	MaxWindow = 100_000_000
)

// CodeCutOff is the ErrorCode of a complete answer that stopped at its
// token budget (finish_reason "length") rather than because the model was
// done: the UI says so and offers Continue.
const CodeCutOff = "cut_off"
