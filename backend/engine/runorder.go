package engine

import (
	"context"
	"path/filepath"
	"sync"

	"airlock/backend/approval"
	"airlock/backend/chat"
)

// The calls of one answer are decided together and then run on their own
// goroutines. So that a decision always holds for the workspace a call
// runs on, a chat's runs are ordered: a tool that may change the
// workspace (move, delete, write, make a folder) runs alone; others may
// run together; and a call a rule allowed is decided again, with the run
// lock held, just before it runs.

// runLocks holds one lock per workspace (a real folder, whichever chats
// work in it; a chat's own scratch space): writers are the tools that
// change the workspace.
type runLocks struct {
	mu sync.Mutex
	m  map[string]*sync.RWMutex
}

// hold takes a workspace's run lock (alone when changes) and returns its
// release.
func (r *runLocks) hold(key string, changes bool) func() {
	r.mu.Lock()
	if r.m == nil {
		r.m = map[string]*sync.RWMutex{}
	}
	l := r.m[key]
	if l == nil {
		l = &sync.RWMutex{}
		r.m[key] = l
	}
	r.mu.Unlock()
	if changes {
		l.Lock()
		return l.Unlock
	}
	l.RLock()
	return l.RUnlock
}

// runKey names the workspace a chat's calls run in, for its run lock: the
// folder for a folder or overlay workspace (two chats may share one), the
// chat for its scratch space.
func (e *Engine) runKey(ctx context.Context, chatID string) string {
	if c, err := e.store.GetChat(ctx, chatID); err == nil && c.WorkspaceDir != "" &&
		c.WorkspaceKind != "" && c.WorkspaceKind != "scratch" {
		return "dir:" + filepath.Clean(c.WorkspaceDir)
	}
	return "chat:" + chatID
}

// stillAllowed decides again a call a rule (or the agent) allowed, on the workspace as it
// is now (callers hold the chat's run lock). When it no longer runs, the
// call is settled or handed back here, and false is returned: denied when
// a never rule covers it now, back to a person (pending, with why) when
// no rule allows it any more.
func (e *Engine) stillAllowed(ctx context.Context, c chat.Call) bool {
	if chat.RuleID(c.DecidedBy) == 0 && chat.AgentID(c.DecidedBy) == "" {
		return true // a person decided, on what the card showed
	}
	e.decide.Lock()
	defer e.decide.Unlock()
	rules, _ := e.store.RulesFor(ctx, c.ChatID)
	env, envErr := e.envFor(ctx, c.ChatID)
	d := approval.Recheck(rules, e.agentOfChat(ctx, c.ChatID), Subjects(e.toolsOf(ctx, c.ChatID), env, envErr)(c), chat.Now())
	switch d.Verdict {
	case approval.Allow:
		return true
	case approval.Deny:
		if e.denyByRule(ctx, c, d.Rule) == nil {
			e.finishLocked(ctx, c.MessageID)
		}
		return false
	}
	if c.Move(chat.CallPending) == nil {
		c.DecidedBy, c.DecidedAt, c.Guard = "", 0, d.Guard
		if e.save(c) == nil {
			e.record(ctx, c, chat.AuditHeld, note{by: d.By, detail: d.Guard})
		}
	}
	return false
}
