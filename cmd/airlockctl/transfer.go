package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"airlock/backend/export"
	"airlock/backend/store"
)

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

func dataDirFlag(fs *flag.FlagSet) *string {
	def, _ := store.DefaultDir()
	return fs.String("data-dir", def, "Airlock's data directory (the one holding "+store.FileName+")")
}

func runExport(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := dataDirFlag(fs)
	var ids stringList
	fs.Var(&ids, "chat", "a chat to export, by ID (repeat for several)")
	all := fs.Bool("all", false, "export every chat (not those in the Trash; name one by ID to export it)")
	format := fs.String("format", "", "md, html or json (default: from the -o file name)")
	out := fs.String("o", "", "write to this file instead of standard output")
	tz := fs.String("tz", "Local", "time zone for the times in md and html (an IANA name such as Europe/Lisbon, or UTC)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: airlockctl export --data-dir DIR (--chat ID ... | --all) --format md|html|json [-o FILE]")
		fs.PrintDefaults()
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "airlockctl export: "+format+"\n", a...)
		return code
	}
	switch {
	case len(pos) > 0:
		return fail(exitUsage, "unexpected argument %q (chats are chosen with --chat ID or --all)", pos[0])
	case len(ids) == 0 && !*all:
		fs.Usage()
		return fail(exitUsage, "say which chats: --chat ID (repeatable) or --all")
	case len(ids) > 0 && *all:
		return fail(exitUsage, "--chat and --all exclude each other")
	}
	if *format == "" && *out != "" {
		*format = strings.TrimPrefix(filepath.Ext(*out), ".")
	}
	switch strings.ToLower(*format) {
	case "md", "markdown", "html", "json":
	case "":
		return fail(exitUsage, "--format is required when writing to standard output (md, html or json)")
	default:
		return fail(exitUsage, "unknown format %q (want md, html or json)", *format)
	}
	loc, err := time.LoadLocation(*tz)
	if err != nil {
		return fail(exitUsage, "--tz: %v", err)
	}
	if _, err := os.Stat(filepath.Join(*dataDir, store.FileName)); err != nil {
		return fail(exitUnreadable, "no Airlock database in %s", *dataDir)
	}
	st, err := store.OpenDir(*dataDir)
	if err != nil {
		return fail(exitUnreadable, "%v", err)
	}
	defer st.Close()
	b, err := export.Build(context.Background(), st, ids)
	if err != nil {
		return fail(exitUnreadable, "%v", err)
	}
	if *out == "" {
		if err := export.Write(stdout, b, *format, export.In(loc)); err != nil {
			return fail(exitUnreadable, "%v", err)
		}
		return exitOK
	}
	if export.Extension(*format) == "md" {
		// Attached files go into the folder beside the .md, linked.
		n, err := export.WriteMarkdownFile(*out, b, export.In(loc))
		if err != nil {
			return fail(exitUnreadable, "%v", err)
		}
		if n > 0 {
			fmt.Fprintf(stderr, "Wrote %d attached files to %s\n", n, export.FilesDir(*out))
		}
	} else if err := writeFileAtomic(*out, func(w io.Writer) error { return export.Write(w, b, *format, export.In(loc)) }); err != nil {
		return fail(exitUnreadable, "%v", err)
	}
	fmt.Fprintf(stderr, "Exported %d chats to %s\n", len(b.Chats), *out)
	return exitOK
}

// writeFileAtomic writes a file through a temporary one in the same
// directory, so a failed export never leaves half a file behind.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

func runImport(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := dataDirFlag(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: airlockctl import --data-dir DIR FILE|-")
		fmt.Fprintln(stderr, "FILE is an Airlock JSON export or a ChatGPT conversations.json (detected).")
		fs.PrintDefaults()
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if len(pos) != 1 {
		fs.Usage()
		return exitUsage
	}
	var in io.Reader = stdin
	if pos[0] != "-" {
		f, err := os.Open(pos[0])
		if err != nil {
			fmt.Fprintf(stderr, "airlockctl import: %v\n", err)
			return exitUnreadable
		}
		defer f.Close()
		in = f
	}
	// Read and check the whole file before touching the database.
	b, src, err := export.Read(in)
	if err != nil {
		fmt.Fprintf(stderr, "airlockctl import: %s: %v\n", pos[0], err)
		return exitUnreadable
	}
	st, err := store.OpenDir(*dataDir)
	if err != nil {
		fmt.Fprintf(stderr, "airlockctl import: %v\n", err)
		return exitUnreadable
	}
	defer st.Close()
	// Open checks only small databases' pages; nothing is written into
	// a damaged one, whatever its size.
	if err := st.CheckIntegrity(context.Background()); err != nil {
		fmt.Fprintf(stderr, "airlockctl import: nothing imported: %v\n", err)
		return exitUnreadable
	}
	rep, err := export.Import(context.Background(), st, b)
	if err != nil {
		fmt.Fprintf(stderr, "airlockctl import: %s: %v\n", pos[0], store.Explain(err))
		return exitUnreadable
	}
	from := "an Airlock export"
	if src == export.SourceChatGPT {
		from = "a ChatGPT export"
	}
	fmt.Fprintf(stdout, "%s (from %s)\n", rep, from)
	return exitOK
}
