package tools

import "airlock/backend/uitext"

// A call the registry refuses, coded for the UI's language: the card
// shows it translated, the model reads the English.
var (
	txtUnknownTool        = uitext.Define("unknown_tool", "There is no tool named {{name}}. Available tools: {{tools}}.")
	txtUnknownToolSuggest = uitext.Define("unknown_tool_suggest", "There is no tool named {{name}}. Did you mean {{suggest}}? Available tools: {{tools}}.")
	txtUnknownToolNone    = uitext.Define("unknown_tool_none", "There is no tool named {{name}}. No tools are available in this chat.")
	txtToolsAndMore       = uitext.Define("tools_and_more", "{{tools}} and {{more}} more")
	txtArgumentError      = uitext.Define("argument_error", "Tool {{tool}}: {{issues}}.")
	txtArgumentErrorHint  = uitext.Define("argument_error_hint", "Tool {{tool}}: {{issues}}. Expected arguments: {{hint}}.")
)

// issueTemplates are the issues describeIssue writes (and Validate's own),
// matched back to their codes; an issue the JSON Schema library words
// stays English.
var issueTemplates = []uitext.Template{
	uitext.Define("issue_missing_argument", "missing required argument {{name}}"),
	uitext.Define("issue_missing_arguments", "missing required arguments {{names}}"),
	uitext.Define("issue_whole_type", "the arguments must be {{want}}, not {{got}}"),
	uitext.Define("issue_type", "argument {{field}} must be {{want}}, not {{got}}"),
	uitext.Define("issue_unknown_argument", "unknown argument {{names}}"),
	uitext.Define("issue_whole_enum", "the arguments must be one of {{values}}"),
	uitext.Define("issue_enum", "argument {{field}} must be one of {{values}}"),
	uitext.Define("issue_not_object", "arguments must be a JSON object"),
	uitext.Define("issue_no_match", "the arguments do not match the tool's schema"),
}
