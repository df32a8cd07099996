package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"airlock/backend/paradigm"
	"airlock/backend/tools"
)

// hugeServer is an in-process server listing what a hostile or careless
// server might: many tools, huge descriptions, huge or deep schemas.
type hugeServer struct {
	tools     int    // small tools
	bigDescs  int    // tools with a 1 MB description
	wideProps int    // properties of one tool's schema (0: none)
	deep      int    // nesting of one tool's schema (0: none)
	named     string // a small tool listed last, that must be offered
}

func (h hugeServer) start(t testing.TB) (*Manager, time.Duration) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "huge", Version: "1"}, nil)
	obj := json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`)
	nop := func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil
	}
	for i := range h.tools {
		srv.AddTool(&sdk.Tool{Name: fmt.Sprintf("t%05d", i), Description: "A small tool.", InputSchema: obj}, nop)
	}
	for i := range h.bigDescs {
		srv.AddTool(&sdk.Tool{Name: fmt.Sprintf("wordy%d", i), Description: strings.Repeat("Very long. ", 1<<20/11), InputSchema: obj}, nop)
	}
	if h.wideProps > 0 {
		var b strings.Builder
		b.WriteString(`{"type":"object","properties":{`)
		for i := range h.wideProps {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"p%d":{"type":"string"}`, i)
		}
		b.WriteString(`}}`)
		srv.AddTool(&sdk.Tool{Name: "wide", Description: "Wide.", InputSchema: json.RawMessage(b.String())}, nop)
	}
	if h.deep > 0 {
		s := `{"type":"string"}`
		for range h.deep {
			s = `{"type":"object","properties":{"a":` + s + `}}`
		}
		srv.AddTool(&sdk.Tool{Name: "deep", Description: "Deep.", InputSchema: json.RawMessage(s)}, nop)
	}
	if h.named != "" {
		srv.AddTool(&sdk.Tool{Name: h.named, Description: "Listed last.", InputSchema: obj}, nop)
	}
	m := NewManager(Options{ListTimeout: time.Minute, Transport: func(ServerConfig) (sdk.Transport, error) {
		a, b := sdk.NewInMemoryTransports()
		if _, err := srv.Connect(context.Background(), a, nil); err != nil {
			return nil, err
		}
		return b, nil
	}})
	t.Cleanup(func() { m.Close() })
	start := time.Now()
	if err := m.Configure([]ServerConfig{{Name: "huge", Enabled: true, URL: "http://in-process.invalid"}}); err != nil {
		t.Fatal(err)
	}
	if err := m.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	return m, time.Since(start)
}

// promptBytes is the size of the tool part of a text-mode system prompt
// with every tool the server offers, and how long the catalogue took to
// build the toolbox.
func promptBytes(t testing.TB, m *Manager) (int, time.Duration) {
	cat, err := tools.NewCatalog(nil, m.Tools)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	box := cat.All()
	took := time.Since(start)
	p, _ := paradigm.Get("json")
	return len(p.Prompt(box.Specs())), took
}

func hasProblem(st Status, words ...string) bool {
	return slices.ContainsFunc(st.Problems, func(p string) bool {
		for _, w := range words {
			if !strings.Contains(p, w) {
				return false
			}
		}
		return true
	})
}

// Caps per server: tool count, description size, schema size and depth,
// and the server's tools together; the status names each cap hit.
func TestHugeServerIsCapped(t *testing.T) {
	t.Run("count", func(t *testing.T) {
		m, _ := hugeServer{tools: 1000}.start(t)
		st, _ := m.ServerStatus("huge")
		if len(m.Tools()) != 200 || st.Tools != 200 || !hasProblem(st, "800 tools left out", "200") {
			t.Errorf("%d tools offered, status %d, problems %q", len(m.Tools()), st.Tools, st.Problems)
		}
	})
	t.Run("description", func(t *testing.T) {
		m, _ := hugeServer{bigDescs: 3, named: "last"}.start(t)
		st, _ := m.ServerStatus("huge")
		for _, tool := range m.Tools() {
			if len(tool.Description) > 8<<10+200 {
				t.Errorf("%s: a %d-byte description is offered", tool.Name, len(tool.Description))
			}
		}
		if !slices.Contains(toolNamesOf(m.Tools()), "mcp__huge__last") || !hasProblem(st, "3 tool descriptions cut", "8 KB") {
			t.Errorf("tools %v, problems %q", toolNamesOf(m.Tools()), st.Problems)
		}
		if size, _ := promptBytes(t, m); size > 64<<10 {
			t.Errorf("the prompt is %d bytes", size)
		}
	})
	t.Run("schema", func(t *testing.T) {
		m, _ := hugeServer{wideProps: 60_000, deep: 40, named: "last"}.start(t)
		st, _ := m.ServerStatus("huge")
		names := toolNamesOf(m.Tools())
		if !slices.Equal(names, []string{"mcp__huge__last"}) ||
			!hasProblem(st, "1 tool left out", "input schema over 64 KB", "wide") ||
			!hasProblem(st, "1 tool left out", "nested deeper than 32", "deep") {
			t.Errorf("tools %v, problems %q", names, st.Problems)
		}
	})
}

// BenchmarkHugeServer reports how long a huge server takes to start and
// to enter the catalogue, and the size of the prompt its tools make.
func BenchmarkHugeServer(b *testing.B) {
	for _, c := range []struct {
		name string
		h    hugeServer
	}{
		{"tools-10000", hugeServer{tools: 10_000}},
		{"descriptions-12x1MB", hugeServer{bigDescs: 12}},
		{"schema-60000-properties", hugeServer{wideProps: 60_000}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				m, start := c.h.start(b)
				size, catalogue := promptBytes(b, m)
				b.ReportMetric(float64(start.Milliseconds()), "start-ms")
				b.ReportMetric(float64(catalogue.Milliseconds()), "catalogue-ms")
				b.ReportMetric(float64(size), "prompt-bytes")
				b.ReportMetric(float64(len(m.Tools())), "tools")
				m.Close()
			}
		})
	}
}

func TestCapperEdges(t *testing.T) {
	if d := jsonDepth([]byte(`{"a":"{[{[","b":[{"c":"\"]"}]}`)); d != 3 {
		t.Errorf("jsonDepth = %d, want 3 (brackets inside strings do not count)", d)
	}
	var c capper
	huge := map[string]any{"type": "object", "description": strings.Repeat("x", 70<<10)}
	c.screen(&sdk.Tool{Name: "out", InputSchema: map[string]any{"type": "object"}, OutputSchema: huge})
	c.screen(&sdk.Tool{Name: "titled", Title: strings.Repeat("t", 9<<10)})
	out, problems := adaptTools("s", c.kept)
	problems = append(c.problems(), problems...)
	if len(out) != 2 || out[0].output != nil || len(out[1].description) > 8<<10+100 {
		t.Fatalf("out = %d tools", len(out))
	}
	if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, `tool "out": its output schema is over 64 KB`) }) ||
		!slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, "1 tool description cut to 8 KB (titled)") }) {
		t.Errorf("problems = %q", problems)
	}
	g := rateGate{limit: 3}
	allowed := 0
	for range 10 {
		if g.allow() {
			allowed++
		}
	}
	if allowed != 3 || g.dropped() != 7 {
		t.Errorf("the gate let %d through and dropped %d", allowed, g.dropped())
	}
}
