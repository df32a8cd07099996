package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"airlock/backend/paradigm"
	"airlock/backend/paradigm/corpus"
)

// defaultCorpus is where the corpus lives in a checkout.
const defaultCorpus = "backend/paradigm/testdata/corpus"

// runCorpus scores the scanner against a corpus of real model outputs and
// prints the score per family: all cases, the two thirds the parsers were
// written against and the third held back.
func runCorpus(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("corpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	failures := fs.Bool("failures", false, "list the failing cases of the written two thirds, with why")
	held := fs.Bool("held", false, "with --failures, list the held-back third's failures too")
	family := fs.String("family", "", "only this family (or a comma-separated list)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: airlockctl corpus [--failures [--held]] [--family F] [DIR]")
		fmt.Fprintln(stderr, "DIR defaults to "+defaultCorpus+" (run from a checkout).")
		fs.PrintDefaults()
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	if len(pos) > 1 {
		fs.Usage()
		return exitUsage
	}
	dir := defaultCorpus
	if len(pos) == 1 {
		dir = pos[0]
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		fmt.Fprintf(stderr, "airlockctl corpus: %s is not a folder of *.jsonl cases\n", filepath.Clean(dir))
		return exitUnreadable
	}
	cases, err := corpus.Load(dir)
	if err != nil {
		fmt.Fprintf(stderr, "airlockctl corpus: %v\n", err)
		return exitUnreadable
	}
	if *family != "" {
		want := map[string]bool{}
		for _, f := range strings.Split(*family, ",") {
			want[strings.TrimSpace(f)] = true
		}
		var keep []corpus.Case
		for _, c := range cases {
			if want[c.Family] {
				keep = append(keep, c)
			}
		}
		cases = keep
	}
	corpus.ScoreAll(cases).Print(stdout, *failures, *held)
	return exitOK
}

// runFormats prints the families the scanner recognises: id, name, the
// models that write it, its markers and its public source.
func runFormats(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("formats", flag.ContinueOnError)
	fs.SetOutput(stderr)
	examples := fs.Bool("examples", false, "also print each family's example")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	for _, f := range paradigm.Formats() {
		fmt.Fprintf(stdout, "%s — %s\n  models:  %s\n  markers: %s\n  source:  %s\n", f.ID, f.Name, f.Models, strings.Join(f.Markers, "  "), f.Source)
		if *examples {
			fmt.Fprintf(stdout, "  example:\n    %s\n", strings.ReplaceAll(f.Example, "\n", "\n    "))
		}
	}
	return exitOK
}
