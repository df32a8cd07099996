package corpus

import (
	"fmt"
	"io"
	"sort"
)

// Tally counts passes among cases.
type Tally struct{ Pass, Total int }

func (t Tally) String() string {
	if t.Total == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d (%.1f%%)", t.Pass, t.Total, t.Percent())
}

// Percent is the share of passes, 100 for no cases.
func (t Tally) Percent() float64 {
	if t.Total == 0 {
		return 100
	}
	return 100 * float64(t.Pass) / float64(t.Total)
}

func (t *Tally) add(pass bool) {
	t.Total++
	if pass {
		t.Pass++
	}
}

// Score is the outcome of a whole corpus.
type Score struct {
	Overall, Written, Held, Negatives Tally
	// Source is the overall score against the sources' own expectations,
	// ignoring Airlock's overrides; Overridden counts the cases that have one.
	Source     Tally
	Overridden int
	Families   map[string]*FamilyScore
	Outcomes   []Outcome
}

// FamilyScore is one family's figures: all its cases, the two thirds the
// parsers were written against, and the third held back.
type FamilyScore struct {
	All, Written, Held Tally
}

// ScoreAll runs every case.
func ScoreAll(cases []Case) Score {
	s := Score{Families: map[string]*FamilyScore{}}
	for i := range cases {
		o := Run(&cases[i])
		s.Outcomes = append(s.Outcomes, o)
		f := s.Families[o.Case.Family]
		if f == nil {
			f = &FamilyScore{}
			s.Families[o.Case.Family] = f
		}
		s.Overall.add(o.Pass)
		f.All.add(o.Pass)
		if o.Case.Held {
			s.Held.add(o.Pass)
			f.Held.add(o.Pass)
		} else {
			s.Written.add(o.Pass)
			f.Written.add(o.Pass)
		}
		if calls, problems := o.Case.Want(); len(calls) == 0 && problems == 0 {
			s.Negatives.add(o.Pass)
		}
		if o.Case.Airlock != nil {
			s.Overridden++
			plain := *o.Case
			plain.Airlock = nil
			s.Source.add(judge(&plain, o.Result) == "")
		} else {
			s.Source.add(o.Pass)
		}
	}
	return s
}

// FamilyNames returns the families, largest first.
func (s Score) FamilyNames() []string {
	var names []string
	for n := range s.Families {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := s.Families[names[i]].All.Total, s.Families[names[j]].All.Total
		if a != b {
			return a > b
		}
		return names[i] < names[j]
	})
	return names
}

// Print writes the table: each family with all its cases, the written
// two thirds and the held-back third, then the totals. With failures, the
// failing cases of the written two thirds are listed with why; the held
// back third's failures are listed only when showHeld.
func (s Score) Print(w io.Writer, failures, showHeld bool) {
	fmt.Fprintf(w, "%-16s %-18s %-18s %-18s\n", "family", "all", "written against", "held back")
	for _, n := range s.FamilyNames() {
		f := s.Families[n]
		fmt.Fprintf(w, "%-16s %-18s %-18s %-18s\n", n, f.All, f.Written, f.Held)
	}
	fmt.Fprintf(w, "%-16s %-18s %-18s %-18s\n", "overall", s.Overall, s.Written, s.Held)
	fmt.Fprintf(w, "negatives (no call in the text): %s\n", s.Negatives)
	fmt.Fprintf(w, "against the sources' own expectations: %s (%d cases carry an Airlock policy override)\n", s.Source, s.Overridden)
	if !failures {
		return
	}
	for _, o := range s.Outcomes {
		if o.Pass || (o.Case.Held && !showHeld) {
			continue
		}
		tag := ""
		if o.Case.Held {
			tag = " [held back]"
		}
		fmt.Fprintf(w, "\nFAIL %s (%s, %s)%s: %s\n", o.Case.ID, o.Case.Family, o.Case.File, tag, o.Why)
	}
}
