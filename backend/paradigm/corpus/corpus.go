// Package corpus scores the scanner against real model outputs: JSON Lines
// files of cases (the text a model wrote, the calls it meant, its family and
// its public source), one file per family in paradigm/testdata/corpus.
//
// A third of each family is held back: the scanner was written without
// looking at those cases, and they are scored apart, so that the figure
// for cases nobody tuned to stays visible. Which cases are held back is
// decided by a hash of their ids, not by anyone's choice.
package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"airlock/backend/chat"
	"airlock/backend/paradigm"
	"airlock/backend/tools"
	"airlock/backend/tools/ojson"
)

// Case is one model output and what a careful reader finds in it.
type Case struct {
	ID     string `json:"id"`
	Family string `json:"family"`
	Text   string `json:"text"`
	Calls  []Call `json:"calls"`
	// Tools, when the expected argument types come from a schema (values
	// of the XML-ish formats are text until a schema says otherwise).
	Tools []tools.Spec `json:"tools,omitempty"`
	// Problems > 0: the text also holds a meant but unreadable call, which
	// must become a problem card.
	Problems int `json:"problems,omitempty"`
	// Negative names why call-looking text is not a call: reasoning,
	// example, docs, code, quoted_result, refusal, prose_mention, other.
	Negative string `json:"negative,omitempty"`
	Source   Source `json:"source"`
	Note     string `json:"note,omitempty"`
	// Airlock, when set, is what Airlock finds instead of what the source
	// expects, by a documented policy (Why) where Airlock deliberately
	// differs: a cut-off call (after its name, or inside a value) is a
	// problem card, never run with partial arguments; a call missing only
	// its closers at the end of the message is a card marked repaired that a
	// person approves (Call.Repaired); a call inside reasoning is never run;
	// a tool the chat doesn't offer is a problem card. The case is scored
	// against it.
	Airlock *Expect `json:"airlock,omitempty"`

	File string `json:"-"` // where it was read from
	Held bool   `json:"-"` // in the held-back third of its family
}

// Expect is an expectation that overrides the source's.
type Expect struct {
	Calls    []Call `json:"calls"`
	Problems int    `json:"problems,omitempty"`
	Why      string `json:"why"`
}

// Want returns what the case is scored against: the source's calls and
// problems, or Airlock's override.
func (c *Case) Want() ([]Call, int) {
	if c.Airlock != nil {
		return c.Airlock.Calls, c.Airlock.Problems
	}
	return c.Calls, c.Problems
}

// Call is an expected call.
type Call struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	// Repaired: only closers were missing at the end of the message, so the
	// call must be found marked repaired (a person approves it).
	Repaired bool `json:"repaired,omitempty"`
}

// Source says where a case comes from.
type Source struct {
	Repo string `json:"repo,omitempty"`
	Path string `json:"path,omitempty"`
	URL  string `json:"url,omitempty"`
}

// Load reads every *.jsonl file in dir and marks the held-back third.
func Load(dir string) ([]Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no *.jsonl files in %s", dir)
	}
	sort.Strings(files)
	var cases []Case
	seen := map[string]string{}
	for _, f := range files {
		cs, err := loadFile(f)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			if prev, dup := seen[c.ID]; dup {
				return nil, fmt.Errorf("%s: case %q is also in %s", f, c.ID, prev)
			}
			seen[c.ID] = f
		}
		cases = append(cases, cs...)
	}
	markHeld(cases)
	return cases, nil
}

func loadFile(path string) ([]Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []Case
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var c Case
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		if c.ID == "" || c.Family == "" {
			return nil, fmt.Errorf("%s:%d: a case needs an id and a family", path, n)
		}
		if c.Source.URL == "" && c.Source.Repo == "" {
			return nil, fmt.Errorf("%s:%d: case %q has no source", path, n, c.ID)
		}
		c.File = filepath.Base(path)
		out = append(out, c)
	}
	return out, sc.Err()
}

// markHeld holds back every third case of each family, in the order of a
// hash of their ids.
func markHeld(cases []Case) {
	byFamily := map[string][]int{}
	for i, c := range cases {
		byFamily[c.Family] = append(byFamily[c.Family], i)
	}
	for _, idx := range byFamily {
		sort.Slice(idx, func(a, b int) bool { return idHash(cases[idx[a]].ID) < idHash(cases[idx[b]].ID) })
		for k, i := range idx {
			cases[i].Held = k%3 == 2
		}
	}
}

func idHash(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()
}

// Outcome is how the scanner did on one case.
type Outcome struct {
	Case   *Case
	Pass   bool
	Why    string // when it failed
	Result paradigm.Result
}

// Run scans a case the way airlockctl scan --paradigm auto does and judges
// the result: names, arguments and order must match exactly, problem cards
// must appear exactly when the case has an unreadable call. This scores
// recognition: the case's tools, when it has them, repair names and coerce
// argument types (the text formats write every value as text), and a call
// of a tool the case doesn't have is a problem, as in the app; but a call
// whose arguments the schema would reject still counts as found, as it does
// for the projects the cases come from (in the app it becomes a problem
// card that says why).
func Run(c *Case) Outcome {
	opts := paradigm.Options{Paradigm: "auto", IDSeed: c.ID}
	if len(c.Tools) > 0 {
		reg, err := tools.NewRegistry(c.Tools)
		if err != nil {
			return Outcome{Case: c, Why: "the case's tools: " + err.Error()}
		}
		opts.Registry = reg
	}
	res := paradigm.Scan(c.Text, opts)
	// A call the schema rejects was still found: count it as a call.
	problems := res.Problems[:0]
	for _, p := range res.Problems {
		if p.Kind != "arguments" {
			problems = append(problems, p)
			continue
		}
		res.Calls = append(res.Calls, chat.ToolCall{ID: p.ID, Name: p.Name, Arguments: p.Arguments, Start: p.Start, End: p.End, Repaired: p.Repaired})
	}
	res.Problems = problems
	sort.SliceStable(res.Calls, func(i, j int) bool { return res.Calls[i].Start < res.Calls[j].Start })
	o := Outcome{Case: c, Result: res}
	o.Why = judge(c, res)
	o.Pass = o.Why == ""
	return o
}

func judge(c *Case, res paradigm.Result) string {
	calls, problems := c.Want()
	if len(res.Calls) != len(calls) {
		return fmt.Sprintf("found %d calls %s, want %d %s%s", len(res.Calls), gotNames(res), len(calls), wantNames(calls), problemText(res))
	}
	for i, w := range calls {
		g := res.Calls[i]
		if g.Name != w.Name {
			return fmt.Sprintf("call %d is %q, want %q", i+1, g.Name, w.Name)
		}
		if !sameJSON(g.Arguments, w.Arguments) {
			return fmt.Sprintf("call %d (%s) has arguments %s, want %s", i+1, g.Name, g.Arguments, compact(w.Arguments))
		}
		if g.Repaired != w.Repaired {
			return fmt.Sprintf("call %d (%s) is marked repaired: %v, want %v", i+1, g.Name, g.Repaired, w.Repaired)
		}
	}
	switch {
	case problems > 0 && len(res.Problems) == 0:
		return "no problem card for the unreadable call"
	case problems == 0 && len(res.Problems) > 0:
		return "unexpected problem card: " + res.Problems[0].Message
	}
	return ""
}

func gotNames(res paradigm.Result) string {
	var n []string
	for _, c := range res.Calls {
		n = append(n, c.Name)
	}
	return "[" + strings.Join(n, " ") + "]"
}

func wantNames(calls []Call) string {
	var n []string
	for _, w := range calls {
		n = append(n, w.Name)
	}
	return "[" + strings.Join(n, " ") + "]"
}

func problemText(res paradigm.Result) string {
	if len(res.Problems) == 0 {
		return ""
	}
	return "; problem: " + res.Problems[0].Message
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// sameJSON compares two JSON values, numbers by value (1 and 1.0 agree).
func sameJSON(a, b json.RawMessage) bool {
	if len(bytes.TrimSpace(b)) == 0 {
		b = json.RawMessage(`{}`)
	}
	va, err1 := ojson.Decode(a)
	vb, err2 := ojson.Decode(b)
	if err1 != nil || err2 != nil {
		return bytes.Equal(a, b)
	}
	return reflect.DeepEqual(normal(va), normal(vb))
}

// normal turns a decoded value into plain maps, slices and float64s.
func normal(v any) any {
	switch t := v.(type) {
	case ojson.Object:
		m := make(map[string]any, len(t))
		for _, kv := range t {
			m[kv.Key] = normal(kv.Value)
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = normal(e)
		}
		return out
	case json.Number:
		if f, err := t.Float64(); err == nil {
			return f
		}
		return string(t)
	}
	return v
}
