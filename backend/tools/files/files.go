// Package files holds the file tools: one file per tool, each with its
// typed arguments, its description, how it runs and, for the tools that
// change files, the preview an approval card shows. They act on the chat's
// workspace (tools.Env.FS); package workspace keeps the filesystems.
//
// Run's output is the text the model reads; its errors are *chat.Error
// with a code (workspace.CodeNotFound, CodeEditNoMatch, …) and a message
// for the model.
package files

import (
	"context"
	"encoding/json"

	"github.com/spf13/afero"

	"airlock/backend/tools"
	"airlock/backend/uitext"
	"airlock/backend/workspace"
)

// Caps. What a tool returns is what a model reads: every cap comes with a
// note in the output saying what was left out and how to get it.
const (
	MaxReadBytes       = 256 << 10 // read_file: bytes returned per call
	MaxReadLines       = 2000      // read_file: lines returned per call
	MaxWriteBytes      = 5 << 20   // write_file / edit_file: size of the new content
	MaxSearchMatches   = 200       // search_files: matching lines returned
	MaxSearchLineRunes = 300       // search_files: a matching line is cut after this
	MaxSearchFileBytes = 16 << 20  // search_files: larger files are skipped (and counted)
	MaxListEntries     = 1000      // list_directory: entries returned
	MaxFindResults     = 1000      // find_files: paths returned
	MaxListDepth       = 20        // list_directory: deepest recursion
	MaxPreviewBytes    = 256 << 10 // an approval card's diff is cut after this
)

// Error codes of the tools alone; the others are workspace's.
const (
	CodeEditNoMatch   = "edit_no_match"  // edit_file: old_text is not in the file
	CodeEditAmbiguous = "edit_ambiguous" // edit_file: old_text is there several times
	CodeBadPattern    = "bad_pattern"    // an invalid regular expression or glob
)

// Tools returns the nine file tools, in the order they are offered.
func Tools() []tools.Tool {
	return []tools.Tool{
		listDirectory(),
		readFile(),
		writeFile(),
		editFile(),
		searchFiles(),
		findFiles(),
		makeDirectory(),
		movePath(),
		deletePath(),
	}
}

// Preview is what an approval card shows: a one-line summary (several lines
// for a folder deletion), a unified diff against the current content of the
// workspace (red/green), and the path it is about.
type Preview struct {
	Summary string `json:"summary"`
	// SummaryText is Summary coded for the UI's language.
	SummaryText *uitext.Text `json:"summaryText,omitempty"`
	Diff        string       `json:"diff,omitempty"`
	Path        string       `json:"path"`
}

// fileTool makes a tool of the chat's workspace from a run (and, for a tool
// that changes files, a preview) taking the decoded arguments. The schema
// the model reads is derived from Args.
func fileTool[Args any](name, description string,
	run func(ctx context.Context, fsys afero.Fs, args Args) (string, error),
	preview func(fsys afero.Fs, args Args) (Preview, error),
) tools.Tool {
	schema, required := argsSchema[Args]()
	decode := func(env tools.Env, raw json.RawMessage) (Args, error) {
		var args Args
		if env.FS == nil {
			return args, coded(workspace.CodeIO, txtNoWorkspace)
		}
		err := decodeArgs(name, raw, &args, required...)
		return args, err
	}
	t := tools.Tool{
		Spec:     tools.Spec{Name: name, Description: description, Parameters: schema},
		Kind:     tools.KindFiles,
		Changes:  preview != nil,
		PathArgs: pathArgs[Args](),
		Run: tools.TextRun(func(ctx context.Context, env tools.Env, raw json.RawMessage) (string, error) {
			args, err := decode(env, raw)
			if err != nil {
				return "", err
			}
			return run(ctx, env.FS, args)
		}),
	}
	if preview != nil {
		t.Preview = func(env tools.Env, raw json.RawMessage) (json.RawMessage, error) {
			args, err := decode(env, raw)
			if err != nil {
				return nil, err
			}
			p, err := preview(env.FS, args)
			if err != nil {
				return nil, err
			}
			return json.Marshal(p)
		}
	}
	return t
}
