package tools

import "context"

// CallInfo names the tool call a run belongs to, for what the environment
// keeps about it (a folder workspace's checkpoint is keyed to the call).
type CallInfo struct {
	ID   string // the stored call's id; "" for a run by hand (Tool lab)
	Tool string // the tool's canonical name
}

type callKey struct{}

// WithCall returns ctx carrying the call a run belongs to.
func WithCall(ctx context.Context, c CallInfo) context.Context {
	return context.WithValue(ctx, callKey{}, c)
}

// CallFrom returns the call ctx carries (zero when none).
func CallFrom(ctx context.Context) CallInfo {
	c, _ := ctx.Value(callKey{}).(CallInfo)
	return c
}

type limitKey struct{}

// WithOutputLimit tells a tool how many bytes of its text the model will
// see (the engine cuts past that), so a tool that pages (read_file) can
// end its page, and its "continue at" note, within it.
func WithOutputLimit(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, limitKey{}, n)
}

// OutputLimit is the limit ctx carries (0: none).
func OutputLimit(ctx context.Context) int {
	n, _ := ctx.Value(limitKey{}).(int)
	return n
}
