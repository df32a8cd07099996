package llm

import (
	"encoding/json"
	"testing"
)

// However a server cuts and interleaves the same calls, the accumulator
// gives the same calls, and its deltas add up to them.
func FuzzToolAccumulator(f *testing.F) {
	f.Add([]byte{}, false, false)
	f.Add([]byte{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9}, true, false)
	f.Add([]byte("interleave me, please, in small pieces"), false, true)
	want := []ToolCall{
		{ID: "call_T", Name: "get_current_time", Arguments: `{"timezone":"Europe/Zürich"}`},
		{ID: "call_C", Name: "calculate", Arguments: `{"expression":"17*23 \"quoted\" \u00fc ✓"}`},
		{ID: "call_W", Name: "write_file", Arguments: `{"path":"notes.md","content":"# Notes\n\n- 日本語\n"}`},
	}
	f.Fuzz(func(t *testing.T, plan []byte, repeatID, splitNames bool) {
		next := func(n int) int { // the plan's next choice in [0, n)
			if len(plan) == 0 || n <= 1 {
				return 0
			}
			b := plan[0]
			plan = plan[1:]
			return int(b) % n
		}
		// Each call's pieces, in order: the name (in one or two pieces),
		// then the arguments cut at chosen places.
		queues := make([][]chunkToolCall, len(want))
		for i, c := range want {
			var q []chunkToolCall
			name := c.Name
			if splitNames {
				cut := 1 + next(len(name)-1)
				q = append(q, piece(i, c.ID, name[:cut], ""))
				name = name[cut:]
			}
			q = append(q, piece(i, c.ID, name, ""))
			for args := c.Arguments; args != ""; {
				n := 1 + next(min(len(args), 9))
				q = append(q, piece(i, "", "", args[:n]))
				args = args[n:]
			}
			if !repeatID {
				for j := 1; j < len(q); j++ {
					q[j].ID = ""
				}
			}
			queues[i] = q
		}
		acc := newToolAccumulator()
		var deltas []ToolCallDelta
		begun := 0 // calls begin in order; after that, pieces interleave freely
		for {
			var open []int
			for i, q := range queues {
				if len(q) > 0 && i <= begun {
					open = append(open, i)
				}
			}
			if len(open) == 0 {
				break
			}
			k := open[next(len(open))]
			if k == begun {
				begun++
			}
			deltas = acc.add(&queues[k][0], deltas)
			queues[k] = queues[k][1:]
		}
		got := acc.result()
		if len(got) != len(want) {
			t.Fatalf("%d calls", len(got))
		}
		built := make([]ToolCall, len(want))
		for _, d := range deltas {
			c := &built[d.Index]
			if d.ID != "" {
				c.ID = d.ID
			}
			c.Name += d.Name
			c.Arguments += d.Arguments
		}
		for i := range want {
			g := got[i]
			if g.ID != want[i].ID || g.Name != want[i].Name || g.Arguments != want[i].Arguments || g.Truncated {
				t.Errorf("call %d: %+v, want %+v", i, g, want[i])
			}
			if built[i].ID != g.ID || built[i].Name != g.Name || built[i].Arguments != g.Arguments {
				t.Errorf("call %d from deltas: %+v", i, built[i])
			}
			if !json.Valid([]byte(g.Arguments)) {
				t.Errorf("call %d: %s", i, g.Arguments)
			}
		}
	})
}

func piece(index int, id, name, args string) chunkToolCall {
	var c chunkToolCall
	c.Index = looseIndex{n: index, set: true}
	c.ID = looseText(id)
	c.Function.Name = looseText(name)
	c.Function.Arguments = argText(args)
	return c
}
