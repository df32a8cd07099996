package files

import (
	"airlock/backend/chat"
	"airlock/backend/uitext"
	"airlock/backend/workspace"
)

// The sentences of the cards' previews, coded so the UI shows them in its
// language (backend/uitext); Preview.Summary keeps the English.
var (
	txtCreate        = uitext.Define("pv_create", "Create {{path}} ({{lines}}, {{size}})")
	txtReplaceBinary = uitext.Define("pv_replace_binary", "Replace {{path}}, a binary or very large file, with {{lines}} of text ({{size}})")
	txtRewriteSame   = uitext.Define("pv_rewrite_same", "Rewrite {{path}} with the same content (no change)")
	txtOverwrite     = uitext.Define("pv_overwrite", "Overwrite {{path}}: +{{added}} −{{removed}} lines")
	txtDeleteLink    = uitext.Define("pv_delete_link", "Delete the symbolic link {{path}}{{target}}: only the link; what it points to stays")
	txtDeleteBinary  = uitext.Define("pv_delete_binary", "Delete {{path}} (binary, {{size}})")
	txtDeleteFile    = uitext.Define("pv_delete_file", "Delete {{path}} ({{size}})")
	txtDeleteEmpty   = uitext.Define("pv_delete_empty_folder", "Delete the empty folder {{path}}")
	txtDeleteFolder  = uitext.Define("pv_delete_folder", "Delete folder {{path}} and everything in it: {{files}}, {{folders}} ({{size}})")
	txtFolderExists  = uitext.Define("pv_folder_exists", "Folder {{path}} already exists (no change)")
	txtCreateFolder  = uitext.Define("pv_create_folder", "Create folder {{path}}")
	txtEdit          = uitext.Define("pv_edit", "Edit {{path}}: replace {{what}} (+{{added}} −{{removed}} lines)")
	txtMoveFolder    = uitext.Define("pv_move_folder", "Move folder {{from}} → {{to}} ({{files}}, {{size}})")
	txtMove          = uitext.Define("pv_move", "Move {{from}} → {{to}}")
	txtMoveReplaces  = uitext.Define("pv_move_replaces", "Move {{from}} → {{to}}; this REPLACES the existing {{to}} ({{size}}), whose content is lost")

	txtOneLine       = uitext.Define("count_line", "1 line")
	txtLines         = uitext.Define("count_lines", "{{n}} lines")
	txtOneFile       = uitext.Define("count_file", "1 file")
	txtFiles         = uitext.Define("count_files", "{{n}} files")
	txtOneFolder     = uitext.Define("count_folder", "1 folder")
	txtFolders       = uitext.Define("count_folders", "{{n}} folders")
	txtOneOccurrence = uitext.Define("count_occurrence", "1 occurrence")
	txtOccurrences   = uitext.Define("count_occurrences", "{{n}} occurrences")
)

// counted is "1 line" or "1,234 lines" as a Text.
func counted(n int64, one, many uitext.Template) uitext.Text {
	if n == 1 {
		return one.With()
	}
	return many.With("n", workspace.Commas(n))
}

// say sets the preview's summary.
func (pv *Preview) say(t uitext.Template, pairs ...any) {
	tx := t.With(pairs...)
	pv.Summary, pv.SummaryText = tx.English, &tx
}

// The sentences of the file tools' refusals (what the model and the card read).
var (
	txtArgsNotObject   = uitext.Define("args_not_object", "{{tool}}: the arguments must be a JSON object: {{reason}}")
	txtArgsMissing     = uitext.Define("args_missing", "{{tool}} needs the argument {{name}}")
	txtArgsWrongType   = uitext.Define("args_wrong_type", "{{tool}}: argument {{name}} must be a {{type}}")
	txtArgsInvalid     = uitext.Define("args_invalid", "{{tool}}: invalid arguments: {{reason}}")
	txtDeleteRoot      = uitext.Define("delete_root", "delete_path cannot delete the workspace root; delete the entries inside it one by one")
	txtDeleteNotEmpty  = uitext.Define("delete_not_empty", "{{path}} is a folder with {{entries}} in it; set recursive=true to delete it and everything inside")
	txtOneEntry        = uitext.Define("count_entry", "1 entry")
	txtEntries         = uitext.Define("count_entries", "{{n}} entries")
	txtEditEmptyOld    = uitext.Define("edit_empty_old", "edit_file: old_text is empty; give the exact text to replace (to create or rewrite a whole file, use write_file)")
	txtEditSame        = uitext.Define("edit_same", "edit_file: old_text and new_text are the same, so nothing would change")
	txtEditAmbiguous   = uitext.Define("edit_ambiguous", "old_text appears {{n}} times in {{path}} (at lines {{lines}}), so nothing was changed; include more of the surrounding lines to make it unique, or set replace_all=true to change every occurrence")
	txtEditTooLarge    = uitext.Define("edit_too_large", "the edited {{path}} would be {{size}}; files are capped at {{max}}")
	txtEditNoMatch     = uitext.Define("edit_no_match", "old_text was not found in {{path}}, so nothing was changed. It must match the file exactly, including whitespace, indentation and line breaks. Read the file again (read_file) and copy the text from it.")
	txtEditNoMatchNear = uitext.Define("edit_no_match_near", "old_text was not found in {{path}}, so nothing was changed. It must match the file exactly, including whitespace, indentation and line breaks; a text that differs only in whitespace starts at line {{line}}. Read the file again (read_file) and copy the text from it.")
	txtNoWorkspace     = uitext.Define("no_workspace", "this chat has no workspace")
	txtFindEmpty       = uitext.Define("find_empty_pattern", "find_files: pattern is empty; give a glob such as \"*.go\"")
	txtFindDotDot      = uitext.Define("find_dotdot", "pattern {{pattern}} may not use \"..\"; set path to choose the folder to search")
	txtFindInFile      = uitext.Define("find_in_file", "{{path}} is a file; path must be a folder to search in")
	txtFileTooLarge    = uitext.Define("file_too_large", "{{path}} is {{size}}; {{tool}} works on files up to {{max}}")
	txtFileBinary      = uitext.Define("file_binary", "{{path}} is a binary file ({{size}}); the file tools only read and edit text")
	txtParentIsFile    = uitext.Define("parent_is_file", "{{parent}} is a file, so {{path}} cannot be created inside it")
	txtListIsFile      = uitext.Define("list_is_file", "{{path}} is a file ({{size}}), not a folder; use read_file to read it")
	txtListDepth       = uitext.Define("list_depth", "list_directory: depth must be 1 or more")
	txtMkdirIsFile     = uitext.Define("mkdir_is_file", "{{path}} already exists as a file")
	txtMoveRoot        = uitext.Define("move_root", "move_path cannot move the workspace root")
	txtMoveSame        = uitext.Define("move_same", "source and destination are the same ({{path}}); nothing to move")
	txtMoveIntoItself  = uitext.Define("move_into_itself", "cannot move the folder {{from}} into itself ({{to}})")
	txtMoveDestFolder  = uitext.Define("move_dest_folder", "{{path}} already exists as a folder; choose another destination")
	txtMoveDestFile    = uitext.Define("move_dest_file", "{{path}} already exists as a file; a folder cannot replace it")
	txtMoveDestExists  = uitext.Define("move_dest_exists", "{{path}} already exists; set overwrite=true to replace it (its current content is lost), or choose another destination")
	txtReadOffset      = uitext.Define("read_offset", "read_file: offset counts lines from 1")
	txtReadLimit       = uitext.Define("read_limit", "read_file: limit must be 1 or more")
	txtReadIsFolder    = uitext.Define("read_is_folder", "{{path}} is a folder; use list_directory to see what is in it")
	txtReadPastEnd     = uitext.Define("read_past_end", "offset {{offset}} is past the end of {{path}}, which has {{lines}}")
	txtSearchEmpty     = uitext.Define("search_empty", "search_files: pattern is empty; give a regular expression to look for")
	txtSearchBadRegexp = uitext.Define("search_bad_regexp", "pattern {{pattern}} is not a valid regular expression ({{reason}}); it uses Go RE2 syntax: escape ( ) [ ] { } . * + ? | ^ $ \\ with a backslash to match them literally")
	txtGlobAbsolute    = uitext.Define("glob_absolute", "glob {{glob}} must be relative (no leading / or drive letter)")
	txtGlobInvalid     = uitext.Define("glob_invalid", "glob {{glob}} is not valid; use * for any name part, ** for any number of folders, ? for one character, {a,b} for alternatives")
	txtWriteRoot       = uitext.Define("write_root", "write_file needs a file path, not the workspace root")
	txtWriteTooLarge   = uitext.Define("write_too_large", "the content is {{size}}; write_file accepts at most {{max}} per call")
	txtWriteIsFolder   = uitext.Define("write_is_folder", "{{path}} is a folder; choose a file name inside it")
)

// coded is a refusal whose sentence is the template filled with pairs.
func coded(code string, t uitext.Template, pairs ...any) *chat.Error {
	return chat.Coded(code, chat.ErrInvalid, t.With(pairs...))
}
