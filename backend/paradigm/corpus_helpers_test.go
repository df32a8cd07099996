package paradigm_test

import (
	"reflect"
	"sync"
	"testing"

	"airlock/backend/paradigm"
	"airlock/backend/paradigm/corpus"
)

// Each parser's test file checks the corpus cases of its families: real
// model outputs from public sources (testdata/corpus, corpus.Load), scored
// as airlockctl corpus scores them, and fed in two chunks at every split
// point.

var (
	loadOnce sync.Once
	loaded   []corpus.Case
	loadErr  error
)

func corpusCases(t *testing.T) []corpus.Case {
	t.Helper()
	loadOnce.Do(func() { loaded, loadErr = corpus.Load("testdata/corpus") })
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return loaded
}

// casesOf returns the cases of the given families: by the family the case
// is filed under, or by the family of a call found in it.
func casesOf(t *testing.T, formats ...string) []corpus.Outcome {
	t.Helper()
	want := map[string]bool{}
	for _, f := range formats {
		want[f] = true
	}
	var out []corpus.Outcome
	cases := corpusCases(t)
	for i := range cases {
		o := corpus.Run(&cases[i])
		mine := want[o.Case.Family]
		for _, c := range o.Result.Calls {
			mine = mine || want[c.Format]
		}
		for _, p := range o.Result.Problems {
			mine = mine || want[p.Format]
		}
		if mine {
			out = append(out, o)
		}
	}
	return out
}

// checkFamilies asserts that at least 90% of the cases of a parser's
// families pass (when there are 5 or more), and that feeding each in two
// chunks, at every split point, gives the result of the whole: calls that
// formed early are the calls of the whole message.
func checkFamilies(t *testing.T, formats ...string) {
	t.Helper()
	t.Parallel()
	outs := casesOf(t, formats...)
	if len(outs) == 0 {
		t.Fatalf("no corpus cases for %v", formats)
	}
	pass := 0
	for _, o := range outs {
		if o.Pass {
			pass++
		} else {
			t.Logf("fails %s (%s): %s", o.Case.ID, o.Case.Family, o.Why)
		}
	}
	if len(outs) >= 5 && pass*10 < len(outs)*9 {
		t.Errorf("%v: %d of %d corpus cases pass, below 90%%", formats, pass, len(outs))
	}
	for _, o := range outs {
		checkChunks(t, o.Case.ID, o.Case.Text)
	}
}

// checkChunks feeds text in two pieces at every split point.
func checkChunks(t *testing.T, id, text string) {
	t.Helper()
	opts := paradigm.Options{Paradigm: "auto", IDSeed: id}
	whole := paradigm.Scan(text, opts)
	for split := 0; split <= len(text); split++ {
		st := paradigm.NewStream(opts)
		st.Write(text[:split])
		forming := st.Forming()
		st.Write(text[split:])
		got := st.Result()
		if !reflect.DeepEqual(got.Calls, whole.Calls) || !reflect.DeepEqual(got.Problems, whole.Problems) {
			t.Fatalf("%s split at %d: the result differs from the whole message's", id, split)
		}
		for i, c := range forming {
			if i >= len(whole.Calls) || c.Name != whole.Calls[i].Name || string(c.Arguments) != string(whole.Calls[i].Arguments) || c.Start != whole.Calls[i].Start {
				t.Fatalf("%s split at %d: call %d formed as %s %s, the whole message has %+v", id, split, i, c.Name, c.Arguments, whole.Calls)
			}
		}
	}
}
