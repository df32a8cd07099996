package chat

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// Agent is a named setup a chat uses: the model it starts on (optional),
// the system prompt, the generation options, how tools are called and which
// are offered, the loop's limits and how approved calls run. A chat reads
// its agent at every turn, so editing an agent changes the next turns of
// its chats, never past messages.
type Agent struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	// ProviderID and Model: the model a chat starts on when it picks this
	// agent ("" = the last one used). A local provider's ID: never exported.
	ProviderID   string `json:"providerId"`
	Model        string `json:"model"`
	SystemPrompt string `json:"systemPrompt"`
	// Generation options; nil or 0 = the provider's default (not sent).
	Temperature     *float64 `json:"temperature"`
	TopP            *float64 `json:"topP"`
	MaxOutputTokens int      `json:"maxOutputTokens"`
	// ToolMode and Paradigm are what a chat takes when it picks the agent.
	ToolMode ToolMode   `json:"toolMode"`
	Paradigm string     `json:"paradigm"`
	Tools    ToolChoice `json:"tools"`
	// MaxTurns: model turns per user message before the loop pauses;
	// ToolTimeoutSeconds: per tool run.
	MaxTurns           int `json:"maxTurns"`
	ToolTimeoutSeconds int `json:"toolTimeoutSeconds"`
	// WorkspaceKind (and WorkspaceDir for a folder or an overlay) is where
	// the tools of a new chat with this agent work.
	WorkspaceKind string `json:"workspaceKind"`
	WorkspaceDir  string `json:"workspaceDir"`
	// Sequential runs a message's approved calls one at a time, in their
	// order, instead of all together.
	Sequential bool `json:"sequential"`
	// Approval is which rules decide the calls of its chats (see
	// ApprovalMode); "" reads as ApprovalRules.
	Approval  ApprovalMode `json:"approval"`
	BuiltIn   bool         `json:"builtIn"` // shipped with Airlock: cannot be deleted
	CreatedAt int64        `json:"createdAt"`
	UpdatedAt int64        `json:"updatedAt"`
}

// ToolChoice is which tools an agent offers: each tool named in Toggles is
// on or off; one not named (a tool added later, an MCP server's) follows
// Default. ReadOnly offers only tools that cannot change anything (built-in
// and file tools that do not write), whatever the toggles say.
type ToolChoice struct {
	Default  bool            `json:"default"`
	Toggles  map[string]bool `json:"toggles"`
	ReadOnly bool            `json:"readOnly"`
}

// ApprovalMode is an agent's approval defaults: which rules decide the
// calls of the chats that use it. A never rule denies in every mode.
type ApprovalMode string

const (
	// ApprovalRules: your Always-allow and Never-allow rules decide; a call
	// no rule covers waits for you (what every chat did before agents).
	ApprovalRules ApprovalMode = "rules"
	// ApprovalReads: as ApprovalRules, and a call of a tool that only reads
	// (a built-in tool, or a file tool that does not write) whose paths all
	// lie inside the workspace runs without asking.
	ApprovalReads ApprovalMode = "reads"
	// ApprovalAsk: careful. Your Always-allow rules for every chat (hour,
	// session, always) run nothing here; a call waits for you unless a rule
	// made for this chat allows it.
	ApprovalAsk ApprovalMode = "ask"
)

// ApprovalModes lists the modes, in the order the editor shows them.
var ApprovalModes = []ApprovalMode{ApprovalRules, ApprovalReads, ApprovalAsk}

// ByAgentPrefix + an agent's ID is who decided a call by the agent's
// approval defaults ("agent:reviewer").
const ByAgentPrefix = "agent:"

// By is how a call decided by the agent's approval defaults records who
// decided.
func (a Agent) By() string { return ByAgentPrefix + a.ID }

// AgentID reads the agent's ID out of a DecidedBy value ("agent:x" → "x");
// "" when an agent did not decide.
func AgentID(by string) string {
	id, _ := strings.CutPrefix(by, ByAgentPrefix)
	if id == by {
		return ""
	}
	return id
}

// Built-in agents.
const (
	DefaultAgentID  = "default"
	ReviewerAgentID = "reviewer"
	PlainAgentID    = "plain"
)

// Limits of an agent (an import file could hold anything).
const (
	MaxAgentName    = 80
	MaxAgentPrompt  = 100_000
	MaxAgentToggles = 1024
	MaxAgents       = 200
	MaxOutputTokens = 1_000_000
)

// DefaultAgent is today's behaviour: every tool, Auto, the global limits.
func DefaultAgent() Agent {
	return Agent{ID: DefaultAgentID, Name: "Default", ToolMode: ToolModeAuto, Paradigm: "json", Approval: ApprovalRules,
		Tools: ToolChoice{Default: true}, MaxTurns: 25, ToolTimeoutSeconds: 30, WorkspaceKind: "scratch", BuiltIn: true}
}

// Offers says whether the agent offers a tool, given the chat's own
// toggles (which win over the agent's) and whether the tool can change
// anything.
func (a Agent) Offers(name string, readOnlySafe bool, chatToggles map[string]bool) bool {
	if a.Tools.ReadOnly && !readOnlySafe {
		return false
	}
	if on, ok := chatToggles[name]; ok {
		return on
	}
	if on, ok := a.Tools.Toggles[name]; ok {
		return on
	}
	return a.Tools.Default
}

// Normalize fills in what an agent left empty with the defaults.
func (a Agent) Normalize() Agent {
	d := DefaultAgent()
	a.Name = strings.TrimSpace(a.Name)
	if a.ToolMode == "" {
		a.ToolMode = d.ToolMode
	}
	if a.Paradigm == "" {
		a.Paradigm = d.Paradigm
	}
	if a.Approval == "" {
		a.Approval = ApprovalRules
	}
	if a.MaxTurns == 0 {
		a.MaxTurns = d.MaxTurns
	}
	if a.ToolTimeoutSeconds == 0 {
		a.ToolTimeoutSeconds = d.ToolTimeoutSeconds
	}
	if a.WorkspaceKind == "" {
		a.WorkspaceKind = "scratch"
	}
	if a.WorkspaceKind == "scratch" {
		a.WorkspaceDir = ""
	}
	if a.ProviderID == "" {
		a.Model = ""
	}
	return a
}

// Check says what is wrong with an agent, or nil.
func (a Agent) Check() error {
	switch {
	case a.Name == "" || len([]rune(a.Name)) > MaxAgentName:
		return txtAgentName.Error("max", MaxAgentName)
	case len(a.SystemPrompt) > MaxAgentPrompt:
		return txtAgentPrompt.Error("max", MaxAgentPrompt)
	case a.Temperature != nil && (math.IsNaN(*a.Temperature) || *a.Temperature < 0 || *a.Temperature > 2):
		return txtAgentTemperature.Error()
	case a.TopP != nil && (math.IsNaN(*a.TopP) || *a.TopP <= 0 || *a.TopP > 1):
		return txtAgentTopP.Error()
	case a.MaxOutputTokens < 0 || a.MaxOutputTokens > MaxOutputTokens:
		return txtAgentMaxOutput.Error("max", MaxOutputTokens)
	case a.MaxTurns < 1 || a.MaxTurns > 1000:
		return txtAgentTurns.Error("got", a.MaxTurns)
	case a.ToolTimeoutSeconds < 1 || a.ToolTimeoutSeconds > 3600:
		return txtAgentTimeout.Error("got", a.ToolTimeoutSeconds)
	case len(a.Tools.Toggles) > MaxAgentToggles:
		return txtAgentToggles.Error("max", MaxAgentToggles)
	}
	if _, ok := ParseToolMode(string(a.ToolMode)); !ok {
		return txtAgentToolMode.Error("mode", strconv.Quote(string(a.ToolMode)))
	}
	if !slices.Contains(ApprovalModes, a.Approval) {
		return txtAgentApproval.Error("approval", strconv.Quote(string(a.Approval)))
	}
	switch a.Paradigm {
	case "json", "xml", "vcp":
	default:
		return txtAgentParadigm.Error("paradigm", strconv.Quote(a.Paradigm))
	}
	switch a.WorkspaceKind {
	case "scratch":
	case "folder", "overlay":
		if strings.TrimSpace(a.WorkspaceDir) == "" {
			return txtAgentNeedsFolder.Error("kind", a.WorkspaceKind)
		}
	default:
		return txtAgentWorkspaceKind.Error("kind", strconv.Quote(a.WorkspaceKind))
	}
	for name := range a.Tools.Toggles {
		if name == "" || len(name) > 128 {
			return txtAgentToolName.Error("name", strconv.Quote(name))
		}
	}
	return nil
}

// ChatSetup is what a chat uses beyond its tool options: its agent, the
// provider and model it talks to, and its own tool toggles (which win over
// the agent's; nil = none).
type ChatSetup struct {
	AgentID     string          `json:"agentId"`
	ProviderID  string          `json:"providerId"`
	Model       string          `json:"model"`
	ToolToggles map[string]bool `json:"toolToggles"`
}
