package store

import (
	"context"
	"database/sql"
	"strings"

	"airlock/backend/chat"
)

// What a new chat starts from: the agent and the model used last.
const (
	keyLastAgent    = "last_agent_id"
	keyLastProvider = "last_provider_id"
	keyLastModel    = "last_model"
)

// updateChat runs an UPDATE of one chat (its id the last argument) and
// reads the chat back, in the transaction.
func updateChat(ctx context.Context, tx *sql.Tx, query string, args ...any) (chat.Chat, error) {
	res, err := tx.ExecContext(ctx, query, args...)
	if err != nil {
		return chat.Chat{}, err
	}
	id, _ := args[len(args)-1].(string)
	if err := mustAffect(res, "chat", id); err != nil {
		return chat.Chat{}, err
	}
	return getChat(ctx, tx, id)
}

// MaxChatToggles bounds a chat's tool toggles.
const MaxChatToggles = 1024

// NewChat starts a conversation with an agent ("" = the one used last, else
// the default): its tool mode, call format and workspace, and its model
// when it names one, else the model used last (else the active provider's).
func (s *Store) NewChat(ctx context.Context, title, agentID string) (chat.Chat, error) {
	a, pid, model, err := s.nextSetup(ctx, agentID)
	if err != nil {
		return chat.Chat{}, err
	}
	o := chat.DefaultChatOptions()
	o.Paradigm, o.ToolMode, o.WorkspaceKind, o.WorkspaceDir = a.Paradigm, a.ToolMode, a.WorkspaceKind, a.WorkspaceDir
	c, err := s.CreateChatWith(ctx, title, o)
	if err != nil {
		return c, err
	}
	err = s.withTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "UPDATE chats SET agent_id = ?, provider_id = ?, model = ?, tool_mode_own = 0, paradigm_own = 0 WHERE id = ?", a.ID, pid, model, c.ID)
		if err != nil {
			return err
		}
		if err := setValue(ctx, tx, keyLastAgent, a.ID); err != nil {
			return err
		}
		c, err = getChat(ctx, tx, c.ID)
		return err
	})
	return c, wrap("new chat", err)
}

// NextChat is what NewChat would start a chat with: the agent, and the
// provider and model.
func (s *Store) NextChat(ctx context.Context, agentID string) (chat.ChatSetup, error) {
	a, pid, model, err := s.nextSetup(ctx, agentID)
	return chat.ChatSetup{AgentID: a.ID, ProviderID: pid, Model: model}, err
}

func (s *Store) nextSetup(ctx context.Context, agentID string) (a chat.Agent, providerID, model string, err error) {
	if agentID == "" {
		agentID, _, _ = s.GetValue(ctx, keyLastAgent)
	} else if _, err := s.GetAgent(ctx, agentID); err != nil {
		return a, "", "", err
	}
	a = agentOrDefault(ctx, s.db, agentID)
	providerID, model = a.ProviderID, a.Model
	if providerID == "" {
		providerID, model = s.lastModel(ctx)
	}
	return a, providerID, model, nil
}

// SetLastModel makes a provider's model the one new chats start from (a
// provider chosen in Settings → Providers).
func (s *Store) SetLastModel(ctx context.Context, providerID, model string) error {
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		if err := setValue(ctx, tx, keyLastProvider, providerID); err != nil {
			return err
		}
		return setValue(ctx, tx, keyLastModel, model)
	})
	return wrap("set last model", err)
}

// HasLastModel says a chat was switched to a model since the start (else a
// new chat takes the active provider, or the environment's).
func (s *Store) HasLastModel(ctx context.Context) bool {
	v, ok, _ := s.GetValue(ctx, keyLastProvider)
	return ok && v != ""
}

// lastModel is the provider and model used last: what a chat last switched
// to, else the active provider and its model.
func (s *Store) lastModel(ctx context.Context) (providerID, model string) {
	pid, _, _ := s.GetValue(ctx, keyLastProvider)
	model, _, _ = s.GetValue(ctx, keyLastModel)
	if pid != "" {
		if _, err := getProvider(ctx, s.db, pid); err == nil || pid == chat.EnvProviderID {
			return pid, model
		}
	}
	st, err := s.GetSettings(ctx)
	if err != nil {
		return "", ""
	}
	p, err := getProvider(ctx, s.db, st.ActiveProviderID)
	if err != nil {
		return "", ""
	}
	return p.ID, p.Model
}

// SetChatModel switches a chat to a provider's model (model "" = the
// provider's own choice); new chats start from it too. Past answers keep
// the model that wrote them.
func (s *Store) SetChatModel(ctx context.Context, chatID, providerID, model string) (chat.Chat, error) {
	providerID, model = strings.TrimSpace(providerID), strings.TrimSpace(model)
	if len(model) > 256 {
		return chat.Chat{}, refuse(txtModelNameLong)
	}
	var c chat.Chat
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		if providerID != chat.EnvProviderID { // the environment's provider is never stored
			if _, err := getProvider(ctx, tx, providerID); err != nil {
				return err
			}
		}
		var err error
		if c, err = updateChat(ctx, tx, "UPDATE chats SET provider_id = ?, model = ? WHERE id = ?", providerID, model, chatID); err != nil {
			return err
		}
		if err := setValue(ctx, tx, keyLastProvider, providerID); err != nil {
			return err
		}
		return setValue(ctx, tx, keyLastModel, model)
	})
	return c, wrap("set chat model", err)
}

// SetChatAgent gives a chat another agent. The chat follows the agent's
// tool mode and call format from now on (its own choices of them are
// dropped), and takes the agent's model when it names one; its own tool
// toggles are dropped (they were choices against the other agent's list).
// The workspace stays: files are not moved by a change of agent.
func (s *Store) SetChatAgent(ctx context.Context, chatID, agentID string) (chat.Chat, error) {
	var c chat.Chat
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		a, err := getAgent(ctx, tx, agentID)
		if err != nil {
			return err
		}
		pid, model := "", ""
		if a.ProviderID != "" {
			pid, model = a.ProviderID, a.Model
		}
		// An agent without a model of its own leaves the chat's.
		if c, err = updateChat(ctx, tx, `UPDATE chats SET agent_id = ?, tool_mode = ?, paradigm = ?, tool_toggles = '', tool_mode_own = 0, paradigm_own = 0,
			provider_id = CASE WHEN ? != '' THEN ? ELSE provider_id END, model = CASE WHEN ? != '' THEN ? ELSE model END WHERE id = ?`,
			a.ID, a.ToolMode, a.Paradigm, pid, pid, pid, model, chatID); err != nil {
			return err
		}
		return setValue(ctx, tx, keyLastAgent, a.ID)
	})
	return c, wrap("set chat agent", err)
}

// SetChatTools sets the chat's own tool toggles (name → offered), which win
// over its agent's; nil or empty clears them.
func (s *Store) SetChatTools(ctx context.Context, chatID string, toggles map[string]bool) (chat.Chat, error) {
	if len(toggles) > MaxChatToggles {
		return chat.Chat{}, refuse(txtTooManyToggles, "max", MaxChatToggles)
	}
	for name := range toggles {
		if name == "" || len(name) > 128 {
			return chat.Chat{}, invalid("%q is not a tool name", name)
		}
	}
	var c chat.Chat
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		var err error
		c, err = updateChat(ctx, tx, "UPDATE chats SET tool_toggles = ? WHERE id = ?", toggleList(toggles), chatID)
		return err
	})
	return c, wrap("set chat tools", err)
}
