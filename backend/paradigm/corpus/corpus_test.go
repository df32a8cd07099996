package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The scanner must read the corpus of real outputs: at least 97% overall,
// and at least 90% of each family with 5 cases or more.
func TestCorpusScore(t *testing.T) {
	cases, err := Load("../testdata/corpus")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 500 {
		t.Fatalf("the corpus has %d cases, want at least 500", len(cases))
	}
	s := ScoreAll(cases)
	var b strings.Builder
	s.Print(&b, false, false)
	t.Logf("\n%s", b.String())
	if s.Overall.Percent() < 97 {
		t.Errorf("overall %s, below 97%%", s.Overall)
	}
	for _, name := range s.FamilyNames() {
		f := s.Families[name]
		if f.All.Total >= 5 && f.All.Percent() < 90 {
			t.Errorf("family %s: %s, below 90%%", name, f.All)
		}
	}
	if s.Negatives.Total < 100 {
		t.Errorf("%d negatives, want at least 100", s.Negatives.Total)
	}
	if t.Failed() {
		for _, o := range s.Outcomes {
			if !o.Pass {
				t.Logf("FAIL %s (%s): %s", o.Case.ID, o.Case.Family, o.Why)
			}
		}
	}
}

// Every case names its source, and the held-back third is a third of each
// family, chosen by the hash of the ids.
func TestCorpusShape(t *testing.T) {
	cases, err := Load("../testdata/corpus")
	if err != nil {
		t.Fatal(err)
	}
	held, families := map[string]int{}, map[string]int{}
	sources := map[string]bool{}
	for _, c := range cases {
		families[c.Family]++
		if c.Held {
			held[c.Family]++
		}
		src := c.Source.Repo
		if src == "" {
			src = c.Source.URL
		}
		sources[strings.SplitN(strings.TrimPrefix(src, "https://github.com/"), "/", 3)[0]] = true
		if c.Airlock != nil && c.Airlock.Why == "" {
			t.Errorf("%s: an override without a reason", c.ID)
		}
	}
	if len(families) < 20 || len(sources) < 8 {
		t.Errorf("%d families from %d sources, want at least 20 and 8", len(families), len(sources))
	}
	for f, n := range families {
		if want := n / 3; held[f] != want {
			t.Errorf("family %s: %d of %d held back, want %d", f, held[f], n, want)
		}
	}
}

func TestLoadRejectsBadCases(t *testing.T) {
	for name, line := range map[string]string{
		"no source":     `{"id":"a","family":"f","text":"x","calls":[]}`,
		"no family":     `{"id":"a","text":"x","calls":[],"source":{"url":"u"}}`,
		"unknown field": `{"id":"a","family":"f","text":"x","calls":[],"source":{"url":"u"},"expected":[]}`,
		"not json":      `{"id":`,
		"duplicate ids": "{\"id\":\"a\",\"family\":\"f\",\"text\":\"x\",\"calls\":[],\"source\":{\"url\":\"u\"}}\n{\"id\":\"a\",\"family\":\"f\",\"text\":\"y\",\"calls\":[],\"source\":{\"url\":\"u\"}}",
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "f.jsonl"), []byte(line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(dir); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
	if _, err := Load(t.TempDir()); err == nil {
		t.Error("an empty folder loaded")
	}
}

// A case passes on exact names, arguments (numbers by value) and order.
func TestJudge(t *testing.T) {
	c := Case{ID: "t", Family: "hermes", Source: Source{URL: "u"},
		Text:  "<tool_call>{\"name\": \"a\", \"arguments\": {\"n\": 1.0}}</tool_call>",
		Calls: []Call{{Name: "a", Arguments: []byte(`{"n":1}`)}}}
	if o := Run(&c); !o.Pass {
		t.Errorf("1.0 and 1 should agree: %s", o.Why)
	}
	c.Calls[0].Arguments = []byte(`{"n":2}`)
	if o := Run(&c); o.Pass {
		t.Error("different arguments passed")
	}
	c.Calls = nil
	if o := Run(&c); o.Pass {
		t.Error("a call found where none is expected passed")
	}
	c.Airlock = &Expect{Calls: []Call{{Name: "a", Arguments: []byte(`{"n":1}`)}}, Why: "test"}
	if o := Run(&c); !o.Pass {
		t.Errorf("the override is what is scored: %s", o.Why)
	}
}
