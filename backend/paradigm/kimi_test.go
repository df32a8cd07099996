package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestKimiCorpus(t *testing.T) { checkFamilies(t, paradigm.FormatKimi) }

// TestKimiTokensMissing: Kimi K2 calls whose begin tokens (or argument
// token) a server dropped are read when a call id stands where the tokens
// were; without one they stay problem cards. Each text is fed whole and in
// two chunks at every split.
func TestKimiTokensMissing(t *testing.T) {
	cases := []struct {
		name, text string
		calls      []string // name and arguments, compact
		problems   int
	}{
		{"no section or call begin", "channel_reply:0<|tool_call_argument_begin|>{\"text\": \"hi\"}<|tool_calls_section_end|>",
			[]string{`channel_reply{"text":"hi"}`}, 0},
		{"two, each without begin", "a:0<|tool_call_argument_begin|>{\"x\": 1}<|tool_call_end|>\nfunctions.b:1<|tool_call_argument_begin|>{\"y\": 2}<|tool_call_end|><|tool_calls_section_end|>",
			[]string{`a{"x":1}`, `b{"y":2}`}, 0},
		{"prose before the id", "Replying now channel_reply:0<|tool_call_argument_begin|>{\"text\": \"ok\"}<|tool_call_end|>",
			[]string{`channel_reply{"text":"ok"}`}, 0},
		{"no call id before the token", "see the token <|tool_call_argument_begin|>{\"text\": \"ok\"}<|tool_call_end|>", nil, 1},
		{"cut off in the arguments", "read:0<|tool_call_argument_begin|>{\"path\": \"a", nil, 1},
		{"argument token stripped", "<|tool_call_begin|> functions.get_weather:0 {\"city\": \"Tokyo\"} <|tool_call_end|>",
			[]string{`get_weather{"city":"Tokyo"}`}, 0},
		{"argument token stripped, no id", "<|tool_call_begin|> hello {\"a\": 1} <|tool_call_end|>", nil, 1},
	}
	opts := paradigm.Options{Paradigm: "auto"}
	for _, c := range cases {
		check := func(how string, r paradigm.Result) {
			var got []string
			for _, k := range r.Calls {
				got = append(got, k.Name+string(k.Arguments))
			}
			if len(got) != len(c.calls) || len(r.Problems) != c.problems {
				t.Errorf("%s (%s): calls %v, %d problems; want %v, %d", c.name, how, got, len(r.Problems), c.calls, c.problems)
				return
			}
			for i := range got {
				if got[i] != c.calls[i] {
					t.Errorf("%s (%s): call %d is %s, want %s", c.name, how, i+1, got[i], c.calls[i])
				}
			}
		}
		check("whole", paradigm.Scan(c.text, opts))
		for k := 1; k < len(c.text); k++ {
			st := paradigm.NewStream(opts)
			st.Write(c.text[:k])
			st.Write(c.text[k:])
			check("in two chunks", st.Result())
		}
	}
}
