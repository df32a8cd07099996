package facade

import (
	"context"
	"encoding/json"

	"airlock/backend/tools/code"
)

// The bounds of run_javascript and run_python (Settings → Running code),
// kept as one JSON value in the settings table.
const keyCodeLimits = "code_limits"

// codeLimits reads the bounds; a value never saved, or unreadable, is the
// defaults (a damaged setting must not stop code from running bounded).
func (a *App) codeLimits(ctx context.Context) code.Limits {
	l := code.DefaultLimits()
	if v, ok, err := a.store.GetValue(ctx, keyCodeLimits); err == nil && ok {
		var saved code.Limits
		if json.Unmarshal([]byte(v), &saved) == nil && saved.Validate() == nil {
			l = saved
		}
	}
	return l
}

// GetCodeLimits returns the bounds of code runs.
func (a *App) GetCodeLimits() code.Limits { return a.codeLimits(a.ctx) }

// SaveCodeLimits checks and stores the bounds of code runs.
func (a *App) SaveCodeLimits(l code.Limits) (code.Limits, error) {
	if err := l.Validate(); err != nil {
		return a.codeLimits(a.ctx), toAPI(err)
	}
	b, _ := json.Marshal(l)
	if err := a.store.SetValue(a.ctx, keyCodeLimits, string(b)); err != nil {
		return a.codeLimits(a.ctx), toAPI(err)
	}
	return a.codeLimits(a.ctx), nil
}
