// Package engine runs a chat turn: store the user's message, stream the
// model's answer to the UI, persist it as it grows, and settle it as
// complete, interrupted or failed. It depends on small interfaces, not on
// SQLite, HTTP or Wails.
package engine

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"airlock/backend/bridge"
	"airlock/backend/chat"
	"airlock/backend/engine/fit"
	"airlock/backend/llm"
	"airlock/backend/tools"
	"airlock/backend/uitext"
)

// Store is the part of the store the engine needs.
type Store interface {
	ListChats(ctx context.Context) ([]chat.Chat, error) // newest first
	GetChat(ctx context.Context, id string) (chat.Chat, error)
	RenameChat(ctx context.Context, id, title string) (chat.Chat, error)
	AddMessage(ctx context.Context, m chat.Message) (chat.Message, error)
	AddVersion(ctx context.Context, of string, m chat.Message) (chat.Message, error)
	SwitchVersion(ctx context.Context, messageID string) (chat.Chat, error)
	UpdateMessage(ctx context.Context, m chat.Message) error
	GetMessage(ctx context.Context, id string) (chat.Message, error)
	ListMessages(ctx context.Context, chatID string) ([]chat.Message, error)
	DeleteMessage(ctx context.Context, id string) error
	GetSettings(ctx context.Context) (chat.Settings, error)
	GetAgent(ctx context.Context, id string) (chat.Agent, error)

	AddCalls(ctx context.Context, calls []chat.Call) ([]chat.Call, error)
	UpdateCall(ctx context.Context, c chat.Call) error
	GetCall(ctx context.Context, id string) (chat.Call, error)
	ListCalls(ctx context.Context, chatID string) ([]chat.Call, error)
	MessageCalls(ctx context.Context, messageID string) ([]chat.Call, error)
	GetModelMode(ctx context.Context, providerID, model string) (chat.ModelMode, error)
	LearnModelMode(ctx context.Context, providerID, model string, mode chat.ToolMode, reason string) (chat.ModelMode, error)

	AddRule(ctx context.Context, r chat.Rule) (chat.Rule, error)
	GetRule(ctx context.Context, id int64) (chat.Rule, error)
	RulesFor(ctx context.Context, chatID string) ([]chat.Rule, error)
	RuleUsed(ctx context.Context, id, at int64) error
	AddAudit(ctx context.Context, e chat.AuditEntry) (chat.AuditEntry, error)

	AttachFiles(ctx context.Context, messageID string, files []chat.AttachmentData) error
	MessageAttachments(ctx context.Context, messageID string) ([]chat.AttachmentData, error)
	GetVision(ctx context.Context, providerID, model string) (chat.Vision, error)
	SetVision(ctx context.Context, v chat.Vision) error
	ToolImages(ctx context.Context, chatID string) bool

	AddSummary(ctx context.Context, m chat.Summary) (chat.Summary, error)
	ListSummaries(ctx context.Context, chatID string) ([]chat.Summary, error)
	UndoSummary(ctx context.Context, id string) (chat.Summary, error)
	GetCompaction(ctx context.Context, chatID string) (chat.Compaction, error)
	LearnModelWindow(ctx context.Context, providerID, model string, tokens int, reason string) (chat.ModelWindow, error)
}

// EnvFor gives a chat's tools their environment (the chat's workspace).
type EnvFor func(ctx context.Context, chatID string) (tools.Env, error)

// ToolsFor gives the tools a chat offers. MCP servers come and go, so the
// engine asks each time it needs them.
type ToolsFor func(c chat.Chat) *tools.Toolbox

// Fixed offers the same tools in every chat.
func Fixed(box *tools.Toolbox) ToolsFor { return func(chat.Chat) *tools.Toolbox { return box } }

// Deps are what an engine is built from.
type Deps struct {
	Store   Store
	Connect Connector
	Emit    bridge.Emitter
	Tools   ToolsFor
	EnvFor  EnvFor
	// Window says how large a model's context window is (optional: else
	// what overflow errors taught, else DefaultWindow).
	Window WindowFor
	// Overflow recognises a "request too long" error (default
	// DefaultOverflow).
	Overflow Overflow
	// Provider is the chat's provider and model, without connecting (the
	// gauge asks often); nil: Connect's.
	Provider func(ctx context.Context, c chat.Chat) (chat.Provider, error)
	// Instructions gives the instructions of the chat's MCP servers, added
	// to the system prompt (instructions.go); nil: none.
	Instructions InstructionsFor
	// Vision is what the server says of whether a provider's model takes
	// images ("yes", "no", "" when not known). It must not wait on the
	// server (optional).
	Vision func(p chat.Provider) string
}

// Model streams one completion (llm.Client satisfies it).
type Model interface {
	Stream(ctx context.Context, req llm.Request, onDelta func(llm.Delta)) (llm.Result, error)
}

// Connector resolves the chat's provider and model (its ProviderID and
// Model; "" for the active provider and its model) into a model to talk to.
type Connector func(ctx context.Context, c chat.Chat) (chat.Provider, Model, error)

// DefaultTitle is the title of a chat nobody has named yet; the first user
// message replaces it.
const DefaultTitle = "New chat"

// PersistInterval bounds how often a growing answer is written to SQLite:
// a crash loses at most this much of it, and tokens never cost a write each.
const PersistInterval = 250 * time.Millisecond

// Engine runs turns. One stream per chat at a time.
type Engine struct {
	store   Store
	connect Connector
	emit    bridge.Emitter
	tools   ToolsFor
	envFor  EnvFor
	notes   InstructionsFor

	windowFor WindowFor
	overflow  Overflow
	provider  func(ctx context.Context, c chat.Chat) (chat.Provider, error)
	vision    func(p chat.Provider) string
	win       windows

	// FrameInterval overrides the UI coalescing interval (tests).
	FrameInterval time.Duration

	mu      sync.Mutex
	streams map[string]*turn   // by chat ID
	running map[string]toolRun // tool runs, by call ID
	// unreadable counts, per provider and model, the answers in a row
	// whose native calls had no readable arguments (Auto's evidence).
	unreadable map[string]int
	wg         sync.WaitGroup

	decide sync.Mutex // serialises decisions and the hand-back of results
	order  inOrder    // the line of calls of chats whose agent runs them one at a time
	runs   runLocks   // orders a chat's runs (runorder.go)
}

type turn struct {
	cancel    context.CancelCauseFunc
	done      chan struct{}
	stopped   bool                // by the user or shutdown: the answer is interrupted, not failed
	messageID string              // the answer being streamed
	live      func() chat.Message // the answer as received so far (set once streaming starts)
}

// New builds an engine.
func New(d Deps) *Engine {
	if d.EnvFor == nil {
		d.EnvFor = func(context.Context, string) (tools.Env, error) { return tools.Env{}, nil }
	}
	if d.Overflow == nil {
		d.Overflow = DefaultOverflow
	}
	return &Engine{store: d.Store, connect: d.Connect, emit: d.Emit, tools: d.Tools, envFor: d.EnvFor,
		windowFor: d.Window, overflow: d.Overflow, provider: d.Provider, notes: d.Instructions,
		vision:  d.Vision,
		win:     windows{learned: map[string]int{}, ratio: map[string]float64{}, tok: fit.NewTokenizer()},
		streams: map[string]*turn{}, running: map[string]toolRun{}, unreadable: map[string]int{}}
}

// Send stores the user's message and starts the model's answer. It returns
// the stored user message and the streaming assistant placeholder.
func (e *Engine) Send(ctx context.Context, chatID, text string) ([]chat.Message, error) {
	return e.SendWith(ctx, chatID, text, nil)
}

// SendWith is Send with files attached (attachments.go): every file is
// checked before anything is stored, and one refused file refuses the
// message, saying why.
func (e *Engine) SendWith(ctx context.Context, chatID, text string, files []chat.NewAttachment) ([]chat.Message, error) {
	if strings.TrimSpace(text) == "" && len(files) == 0 {
		return nil, refuse("empty_message", chat.ErrInvalid, txtEmptyMessage)
	}
	checked, err := checkFiles(files)
	if err != nil {
		return nil, err
	}
	c, err := e.store.GetChat(ctx, chatID)
	if err != nil {
		return nil, err
	}
	if e.Streaming(chatID) {
		return nil, refuse("busy", chat.ErrBusy, txtBusyAnswering)
	}
	if err := e.supersedeUndecided(ctx, chatID); err != nil {
		return nil, err
	}
	user, err := e.store.AddMessage(ctx, chat.Message{ChatID: chatID, Role: chat.RoleUser, Kind: chat.KindText, Content: text, Status: chat.StatusComplete})
	if err != nil {
		return nil, err
	}
	if user, err = e.attachTo(ctx, user, checked); err != nil {
		return nil, err
	}
	if c.Title == DefaultTitle || strings.TrimSpace(c.Title) == "" {
		if _, err := e.store.RenameChat(ctx, chatID, titleFrom(titleText(text, checked))); err == nil {
			e.emit(bridge.EventChatsChanged, nil)
		}
	}
	asst, err := e.start(ctx, chatID)
	if err != nil {
		return []chat.Message{user}, err
	}
	return []chat.Message{user, asst}, nil
}

// Retry replaces the chat's last failed or interrupted answer with a new one.
func (e *Engine) Retry(ctx context.Context, chatID string) (chat.Message, error) {
	if e.Streaming(chatID) {
		return chat.Message{}, refuse("busy", chat.ErrBusy, txtBusy)
	}
	msgs, err := e.store.ListMessages(ctx, chatID)
	if err != nil {
		return chat.Message{}, err
	}
	if len(msgs) == 0 {
		return chat.Message{}, refuse("nothing_to_retry", chat.ErrInvalid, txtNothingToRetry)
	}
	last := msgs[len(msgs)-1]
	if last.Role == chat.RoleAssistant {
		if last.Status == chat.StatusComplete {
			return chat.Message{}, refuse("nothing_to_retry", chat.ErrInvalid, txtLastCompleted)
		}
		if err := e.store.DeleteMessage(ctx, last.ID); err != nil {
			return chat.Message{}, err
		}
	}
	return e.start(ctx, chatID)
}

// Stop interrupts the chat's answer; what arrived so far is kept.
func (e *Engine) Stop(chatID string) {
	e.mu.Lock()
	t := e.streams[chatID]
	if t != nil {
		t.stopped = true
		t.cancel(errStopped)
	}
	e.mu.Unlock()
	if t != nil {
		<-t.done
	}
}

// toolRun is a tool call being executed.
type toolRun struct {
	chatID string
	cancel context.CancelCauseFunc
}

// busy says why the chat's conversation cannot change now ("" when it can):
// an answer is streaming or a tool is running.
func (e *Engine) busy(chatID string) *chat.Error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.streams[chatID] != nil {
		return refuse("busy", chat.ErrBusy, txtBusyAnswering)
	}
	for _, r := range e.running {
		if r.chatID == chatID {
			return refuse("busy", chat.ErrBusy, txtBusyTool)
		}
	}
	return nil
}

// Streaming reports whether the chat has an answer in flight.
func (e *Engine) Streaming(chatID string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.streams[chatID] != nil
}

// Live returns the streaming message as received so far, fresher than the
// store (which is written every PersistInterval). ok is false when the
// message is not streaming.
func (e *Engine) Live(messageID string) (m chat.Message, ok bool) {
	e.mu.Lock()
	var live func() chat.Message
	for _, t := range e.streams {
		if t.messageID == messageID {
			live = t.live
		}
	}
	e.mu.Unlock()
	if live == nil {
		return chat.Message{}, false
	}
	return live(), true
}

// Active lists the chats with an answer in flight.
func (e *Engine) Active() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	ids := make([]string, 0, len(e.streams))
	for id := range e.streams {
		ids = append(ids, id)
	}
	return ids
}

// Shutdown interrupts every stream and waits until each has written its
// final state.
func (e *Engine) Shutdown() {
	e.mu.Lock()
	for _, t := range e.streams {
		t.stopped = true
		t.cancel(errStopped)
	}
	for _, r := range e.running {
		r.cancel(errStopped)
	}
	e.mu.Unlock()
	e.wg.Wait()
}

var errStopped = errors.New("stopped by the user")

// start creates the assistant placeholder at the end of the active path and
// streams into it in the background.
func (e *Engine) start(ctx context.Context, chatID string) (chat.Message, error) {
	return e.startAs(ctx, chatID, func(m chat.Message) (chat.Message, error) { return e.store.AddMessage(ctx, m) })
}

// startAs streams a new answer that add stores (as the next message, or as a
// new version of an earlier answer). The request is the active path up to it.
func (e *Engine) startAs(ctx context.Context, chatID string, add func(chat.Message) (chat.Message, error)) (chat.Message, error) {
	c, err := e.store.GetChat(ctx, chatID)
	if err != nil {
		return chat.Message{}, err
	}
	provider, model, connErr := e.connect(ctx, c)
	asst, err := add(chat.Message{ChatID: chatID, Role: chat.RoleAssistant, Kind: chat.KindText, Status: chat.StatusStreaming, Model: provider.Model})
	if err != nil {
		return chat.Message{}, err
	}
	if connErr != nil {
		// No usable provider: the answer fails visibly, with a Retry, rather
		// than the user's message vanishing.
		asst = e.settle(asst, connErr, false)
		bridge.NewCoalescer(e.emit, chatID, asst.ID, 0).End(asst)
		return asst, nil
	}
	if _, envErr := e.envFor(ctx, chatID); envErr != nil {
		// The chat's workspace cannot be opened (its folder vanished):
		// the turn stops here, never running somewhere else.
		asst = e.settle(asst, workspaceUnavailable(envErr), false)
		bridge.NewCoalescer(e.emit, chatID, asst.ID, 0).End(asst)
		return asst, nil
	}
	history, err := e.store.ListMessages(ctx, chatID)
	if err != nil {
		return chat.Message{}, err
	}

	e.mu.Lock()
	if e.streams[chatID] != nil {
		e.mu.Unlock()
		_ = e.store.DeleteMessage(ctx, asst.ID)
		return chat.Message{}, refuse("busy", chat.ErrBusy, txtBusy)
	}
	sctx, cancel := context.WithCancelCause(context.Background())
	t := &turn{cancel: cancel, done: make(chan struct{}), messageID: asst.ID}
	e.streams[chatID] = t
	e.wg.Add(1)
	e.mu.Unlock()

	plan := e.planTurn(ctx, c, provider, history)
	plan.window = e.budgetFor(ctx, provider)
	go e.run(sctx, t, asst, model, plan)
	return asst, nil
}

// run streams one answer. The growing message is persisted at most every
// PersistInterval; the final state is written before the UI is told.
func (e *Engine) run(ctx context.Context, t *turn, msg chat.Message, model Model, plan turnPlan) {
	defer e.wg.Done()
	defer close(t.done)
	defer t.cancel(nil)

	ui := bridge.NewCoalescer(e.emit, msg.ChatID, msg.ID, e.FrameInterval)
	var (
		mu        sync.Mutex
		text      strings.Builder
		reasoning strings.Builder
		dirty     bool
	)
	live := func() chat.Message {
		mu.Lock()
		defer mu.Unlock()
		m := msg
		m.Content, m.Reasoning = text.String(), reasoning.String()
		return m
	}
	snapshot := func() chat.Message {
		m := live()
		mu.Lock()
		dirty = false
		mu.Unlock()
		return m
	}
	e.mu.Lock()
	t.live = live
	e.mu.Unlock()

	persistDone := make(chan struct{})
	stopPersist := make(chan struct{})
	go func() {
		defer close(persistDone)
		tick := time.NewTicker(PersistInterval)
		defer tick.Stop()
		for {
			select {
			case <-stopPersist:
				return
			case <-tick.C:
				mu.Lock()
				d := dirty
				mu.Unlock()
				if d {
					_ = e.store.UpdateMessage(context.Background(), snapshot())
				}
			}
		}
	}()

	plan = e.compactIfNeeded(ctx, plan, model)
	sent, estimate := 0, 0 // the size of the request last sent: the tokenizer's count, and calibrated
	stream := func() (llm.Result, error) {
		forming := newFormer(e.emit, msg.ChatID, msg.ID, plan.textStream())
		defer forming.flush()
		req, rep, err := plan.request()
		if err != nil {
			return llm.Result{}, tooSmall(rep, plan.window)
		}
		// Images are counted by their estimate on both sides: the server's
		// count includes them, and the calibration is of the text.
		sent, estimate = rawTokens(req, plan.window.raw)+rep.Images, rep.Tokens
		return model.Stream(ctx, req, func(d llm.Delta) {
			mu.Lock()
			if d.TextWasReasoning {
				// A template omitted <think>: what looked like answer text was
				// reasoning. The final stream:end event corrects the UI.
				reasoning.WriteString(text.String())
				text.Reset()
			}
			text.WriteString(d.Text)
			reasoning.WriteString(d.Reasoning)
			dirty = true
			mu.Unlock()
			ui.Add(d.Text, d.Reasoning)
			forming.add(d)
			if d.Notice != "" {
				e.notice(msg.ChatID, "provider_notice", uitext.Plain(d.Notice))
			}
		})
	}
	res, err := stream()
	if plan.visionRefused(err) && live().Content == "" && live().Reasoning == "" {
		// This model does not take images: learn it, say so, and ask
		// again with the images left out.
		e.learnNoVision(plan, refusal(err))
		plan.vision.Sees = "no"
		res, err = stream()
	}
	if plan.refused(err) && live().Content == "" && live().Reasoning == "" {
		// Auto: this model refuses native tools. Learn it and ask again
		// with text calls, in the same answer: the user's message stands.
		e.learn(plan, chat.ToolModeText, refusal(err))
		plan.mode = chat.ToolModeText
		res, err = stream()
	}
	if window, ok := e.overflow(err); ok && live().Content == "" && live().Reasoning == "" && !t.stopped {
		// The server counted more than we did: learn its window (or a
		// smaller one), fit again and ask once more, saying so.
		if window < MinWindow || window >= plan.window.Tokens {
			window = shrinkWindow(plan.window.Window, estimate)
		}
		e.learnWindow(plan.provider, window, refusal(err).English)
		plan.window = e.budgetFor(context.Background(), plan.provider)
		e.notice(msg.ChatID, "context_refit", txtRefit.With("window", fit.Thousands(plan.window.Tokens)))
		res, err = stream()
		if _, again := e.overflow(err); again {
			err = overflowError(err)
		}
	}
	close(stopPersist)
	<-persistDone

	final := snapshot()
	final.Usage = res.Usage
	for i := range res.Thoughts {
		res.Thoughts[i].Provider = plan.provider.ID
	}
	final.Thoughts = chat.EncodeThoughts(res.Thoughts)
	if err == nil && !e.truncated(msg.ChatID, estimate, plan.window.Window, res.Usage) {
		e.calibrate(plan.provider, sent, res.Usage)
	}
	if err == nil && res.CutOff() {
		final.ErrorCode = chat.CodeCutOff
		final.ErrorMessage = "The answer reached its length limit (the model's answer budget, or what was left of its context window) and may be unfinished."
	}
	if res.Model != "" {
		final.Model = res.Model
	}
	e.mu.Lock()
	stopped := t.stopped
	e.mu.Unlock()
	final = e.settle(final, err, stopped)
	// The chat is free again before the UI hears the end, so a Send right
	// after stream:end is never refused as busy.
	e.mu.Lock()
	delete(e.streams, msg.ChatID)
	e.mu.Unlock()
	ui.End(final)
	switch {
	case final.Status == chat.StatusComplete:
		e.afterAnswer(final, plan, res)
	case final.Status == chat.StatusError && len(res.ToolCalls) > 0:
		e.brokenCalls(final, plan, res)
	}
}

// settle writes the final state of an answer and returns it.
func (e *Engine) settle(m chat.Message, err error, stopped bool) chat.Message {
	switch {
	case err == nil:
		m.Status = chat.StatusComplete
	case stopped:
		m.Status = chat.StatusInterrupted
		m.ErrorCode, m.ErrorMessage, m.ErrorText = "", "", nil
	default:
		m.Status = chat.StatusError
		m.ErrorCode, m.ErrorMessage, m.ErrorText = errorCode(err), err.Error(), codedText(err)
	}
	m.UpdatedAt = chat.Now()
	if werr := e.store.UpdateMessage(context.Background(), m); werr != nil && err == nil {
		m.Status = chat.StatusError
		m.ErrorCode, m.ErrorMessage, m.ErrorText = "storage", "The answer arrived but could not be saved: "+werr.Error(), nil
	}
	return m
}

// CodeWorkspaceUnavailable is the code of an answer that was not asked for
// because the chat's workspace could not be opened.
const CodeWorkspaceUnavailable = "workspace_unavailable"

func workspaceUnavailable(err error) error {
	return refuse(CodeWorkspaceUnavailable, err, txtWorkspaceClosed, "reason", err)
}

func errorCode(err error) string {
	var coded interface{ Code() string }
	if errors.As(err, &coded) {
		return coded.Code()
	}
	var ce *chat.Error
	if errors.As(err, &ce) {
		return ce.Code
	}
	return "unknown"
}

// titleFrom makes a sidebar title out of the first message: its first line
// with words (a pasted log or code block starts with a fence or a heading
// mark), at most 60 characters, cut at a word. Only the first few lines are
// looked at, so a 3,000-line paste costs no more than a short message.
func titleFrom(text string) string {
	line := ""
	rest := strings.TrimSpace(text)
	for i := 0; i < 20 && rest != "" && line == ""; i++ {
		var l string
		l, rest, _ = strings.Cut(rest, "\n")
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			continue // a fence line ("```go") names a language, not the subject
		}
		l = strings.TrimSpace(strings.TrimLeft(l, "#> \t"))
		if strings.IndexFunc(l, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			line = strings.Join(strings.Fields(l), " ")
		}
	}
	const max = 60
	if utf8.RuneCountInString(line) <= max {
		return line
	}
	r := []rune(line)[:max]
	s := string(r)
	if i := strings.LastIndexByte(s, ' '); i > max/2 {
		s = s[:i]
	}
	return strings.TrimSpace(s) + "…"
}
