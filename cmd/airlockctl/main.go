// Command airlockctl is Airlock's command line, for people debugging a
// model and for acceptance tests.
//
//	airlockctl scan [--paradigm json|xml|vcp|auto] [--tools FILE] [FILE|-]
//	airlockctl export --data-dir DIR (--chat ID ... | --all) --format md|html|json [-o FILE]
//	airlockctl import --data-dir DIR FILE|-
//	airlockctl audit [--data-dir DIR] [--chat ID] [--tool T] [--decision D] --format jsonl|csv
//	airlockctl corpus [--failures [--held]] [--family F] [DIR]
//	airlockctl formats [--examples]
//	airlockctl mcp-conformance [-v] URL   (scenario in MCP_CONFORMANCE_SCENARIO)
//
// scan reads one complete assistant message (a file, or standard input) and
// prints one JSON object: {"calls":[{"id","name","arguments","format"}],
// "problems":[{"message","raw"}]}. Without --tools, names are kept as written
// and argument values as the model wrote them; with --tools (a JSON array of
// {name, description, parameters}) names are repaired and arguments
// validated and coerced. The exit status is 0 whatever was found; 2 for bad
// usage, 1 for unreadable input.
//
// export writes chats as Markdown, HTML or Airlock's JSON (standard output
// unless -o; a Markdown file gets its attached files in "<name>_files"
// beside it); import reads an Airlock JSON export or a ChatGPT
// conversations.json into the database, all or nothing, and prints a
// one-line report. Both use backend/export, as the app does. Exit status:
// 0 done, 1 failed (unreadable file, bad data, missing chat), 2 bad usage.
//
// audit prints the audit trail (every decision on a tool call: who, when,
// the arguments as proposed and as run, the preview shown, the result
// status and duration), oldest first, as JSON Lines (one decision a line)
// or CSV (a header row first). It opens the database read-only.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"

	"airlock/backend/paradigm"
	"airlock/backend/tools"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// command is one subcommand.
type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

var commands = map[string]command{
	"scan":            {"find the tool calls in a model's message and print them as JSON", runScan},
	"export":          {"write chats as Markdown, HTML or JSON", runExport},
	"import":          {"import an Airlock JSON export or a ChatGPT conversations.json", runImport},
	"audit":           {"print the audit trail of tool-call decisions as JSON Lines or CSV", runAudit},
	"corpus":          {"score the scanner against a corpus of real model outputs, per family", runCorpus},
	"formats":         {"list the call syntaxes the scanner recognises, with markers and sources", runFormats},
	"mcp-conformance": {"the client side of the official MCP conformance suite, on Airlock's MCP client", runConformance},
}

const (
	exitOK         = 0
	exitUnreadable = 1
	exitUsage      = 2
)

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return exitOK
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "airlockctl: unknown command %q\n\n", args[0])
		usage(stderr)
		return exitUsage
	}
	return cmd.run(args[1:], stdin, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: airlockctl <command> [arguments]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'airlockctl <command> -h' for a command's flags.")
}

// parseInterleaved lets flags follow positional arguments (scan msg.txt
// --tools t.json), which the flag package alone stops at.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// scanOutput is what scan prints. The required fields come first and are
// always present; the others are extras for people.
type scanOutput struct {
	Calls    []scanCall         `json:"calls"`
	Problems []scanProblem      `json:"problems"`
	Ignored  []paradigm.Ignored `json:"ignored,omitempty"`
}

type scanCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Format    string          `json:"format,omitempty"`
	// Repaired: the message ended with only the call's closers missing;
	// Airlock added them, and a person must approve the call.
	Repaired bool   `json:"repaired,omitempty"`
	Raw      string `json:"raw,omitempty"`
	Start    *int   `json:"start,omitempty"`
	End      *int   `json:"end,omitempty"`
}

type scanProblem struct {
	Message string `json:"message"`
	Raw     string `json:"raw"`
	Name    string `json:"name,omitempty"`
	Format  string `json:"format,omitempty"`
	Start   *int   `json:"start,omitempty"`
	End     *int   `json:"end,omitempty"`
}

func runScan(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("scan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	par := fs.String("paradigm", "auto", "the chat's paradigm: json, xml, vcp, or auto (every format the scanner knows)")
	toolsFile := fs.String("tools", "", "a JSON array of tool specs {name, description, parameters}: repair names, validate and coerce arguments")
	others := fs.Bool("others", true, "also recognise the formats model families emit (Hermes, Qwen3-Coder, Llama, Mistral, DeepSeek, ...)")
	seed := fs.String("seed", "", "mixed into generated call ids (a message id)")
	verbose := fs.Bool("v", false, "also print each call's raw text, byte offsets, and the regions ignored (reasoning, code, examples)")
	compact := fs.Bool("compact", false, "print the JSON on one line")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: airlockctl scan [--paradigm json|xml|vcp|auto] [--tools FILE] [FILE|-]")
		fs.PrintDefaults()
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if len(pos) > 1 {
		fmt.Fprintln(stderr, "airlockctl scan: one input at most (a file, or - for standard input)")
		fs.Usage()
		return exitUsage
	}
	switch *par {
	case "json", "xml", "vcp", "auto":
	default:
		fmt.Fprintf(stderr, "airlockctl scan: unknown paradigm %q (json, xml, vcp or auto)\n", *par)
		return exitUsage
	}
	opts := paradigm.Options{Paradigm: *par, RecognizeOthers: *others, IDSeed: *seed}
	if *toolsFile != "" {
		specs, err := tools.LoadSpecsFile(*toolsFile)
		if err != nil {
			fmt.Fprintf(stderr, "airlockctl scan: --tools: %v\n", err)
			if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
				return exitUnreadable
			}
			return exitUsage
		}
		reg, err := tools.NewRegistry(specs)
		if err != nil {
			fmt.Fprintf(stderr, "airlockctl scan: --tools: %v\n", err)
			return exitUsage
		}
		opts.Registry = reg
	}
	var in io.Reader = stdin
	name := "standard input"
	if len(pos) == 1 && pos[0] != "-" {
		f, err := os.Open(pos[0])
		if err != nil {
			fmt.Fprintf(stderr, "airlockctl scan: %v\n", err)
			return exitUnreadable
		}
		defer f.Close()
		in, name = f, pos[0]
	}
	data, err := io.ReadAll(in)
	if err != nil {
		fmt.Fprintf(stderr, "airlockctl scan: reading %s: %v\n", name, err)
		return exitUnreadable
	}
	res := paradigm.Scan(string(data), opts)
	out := scanOutput{Calls: []scanCall{}, Problems: []scanProblem{}}
	for _, c := range res.Calls {
		sc := scanCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments, Format: c.Format, Repaired: c.Repaired}
		if *verbose {
			start, end := c.Start, c.End
			sc.Raw, sc.Start, sc.End = c.Raw, &start, &end
		}
		out.Calls = append(out.Calls, sc)
	}
	for _, p := range res.Problems {
		sp := scanProblem{Message: p.Message, Raw: p.Raw, Name: p.Name, Format: p.Format}
		if *verbose {
			start, end := p.Start, p.End
			sp.Start, sp.End = &start, &end
		}
		out.Problems = append(out.Problems, sp)
	}
	if *verbose {
		out.Ignored = res.Ignored
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	if !*compact {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(stderr, "airlockctl scan: %v\n", err)
		return exitUnreadable
	}
	return exitOK
}
