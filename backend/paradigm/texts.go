package paradigm

import (
	"airlock/backend/chat"
	"airlock/backend/uitext"
)

// The problems the parsers write, coded for the UI's language. The parsers
// keep writing the English (what the model is told); problemText finds the
// sentence's code by its template, so the two must stay word for word the
// same (TestProblemTextsCodeTheParsersSentences). A sentence not listed
// here reaches the card in English.
var problemTemplates = []uitext.Template{
	uitext.Define("problem_cut_off", msgCutOff),
	uitext.Define("problem_cut_off_in_value", `The call of {{name}} was cut off inside a value, before it was complete, so it was not run. Send the whole call again.`),
	uitext.Define("problem_cut_off_after_name", `The call of {{name}} was cut off right after the name of the tool, before it was complete, so it was not run. Send the whole call again.`),
	uitext.Define("problem_cut_off_in_arguments", `The call of {{name}} was cut off inside its arguments, before it was complete, so it was not run. Send the whole call again.`),
	uitext.Define("problem_no_tool_name", "The tool call has no tool name, so it was not run."),
	uitext.Define("problem_this_no_tool_name", "This tool call has no tool name, so it was not run."),
	uitext.Define("problem_not_a_tool_name", `{{name}} is not a tool name, so the call was not run.`),
	uitext.Define("problem_args_must_be_object", `The arguments of {{name}} must be a JSON object, so the call was not run.`),
	uitext.Define("problem_args_not_object", `The arguments of {{name}} are not a JSON object, so the call was not run.`),
	uitext.Define("problem_args_string_not_object", `The arguments of {{name}} are a string that is not a JSON object, so the call was not run. Give "arguments" as a JSON object.`),
	uitext.Define("problem_args_unreadable", `The arguments of {{name}} could not be read, so the call was not run.`),
	uitext.Define("problem_no_arguments_object", `The call of {{name}} has no arguments object, so it was not run.`),
	uitext.Define("problem_not_a_call_object", `This is not a tool call: expected a JSON object with "name" and "arguments".`),
	uitext.Define("problem_bad_json", `The tool call is not valid JSON ({{detail}}), so it was not run. Write it again as valid JSON.`),
	uitext.Define("problem_json_incomplete", `The tool call's JSON is not complete before {{stop}} (a bracket, brace or quote is missing), so it was not run. Write the whole call again.`),
	uitext.Define("problem_string_not_closed", `The tool call is not valid JSON: a string is not closed before {{stop}}.`),
	uitext.Define("problem_nested_too_deep", "The tool call is nested too deeply to read."),
	uitext.Define("problem_not_closed", `The call of {{name}} is not closed with {{closer}}, so it was not run. Write the whole call again.`),
	uitext.Define("problem_argument_no_value", `The argument {{arg}} of {{name}} has no value, so the call was not run.`),
	uitext.Define("problem_parameter_no_name", `A parameter of {{name}} has no name, so the call was not run. Write each argument as <parameter=NAME>value</parameter>.`),
	uitext.Define("problem_positional", `The call of {{name}} passes arguments by position; name each one ({{example}}), so Airlock knows which is which.`),
	uitext.Define("problem_after_marker_not_json", `The tool call after this marker is not JSON, so it was not run. Write the call as a JSON object with "name" and "arguments".`),
	uitext.Define("problem_line_unreadable", `This line is not a tool call Airlock can read, so it was not run: {{line}}`),
	uitext.Define("problem_block_unreadable", `This {{block}} block holds no tool call Airlock can read, so nothing was run. Write the call in the format the system prompt describes.`),
	uitext.Define("problem_not_a_list", `{{key}} must be a list of calls.`),
	uitext.Define("problem_vcp_no_tool_name", "This TOOL_REQUEST block has no tool_name, so nothing was run. Name the tool with tool_name:「始」…「末」."),
	uitext.Define("problem_vcp_value_not_closed", "The value of {{key}} has no 「末」 before <<<[END_TOOL_REQUEST]>>>, so the call was not run. Close every value with 「末」."),
	uitext.Define("problem_mistral_no_tool_name", "The tool call after [TOOL_CALLS] has no tool name, so it was not run."),
	uitext.Define("problem_kimi_bad_id", "The call id {{id}} is not functions.NAME:INDEX, so the call was not run."),
	uitext.Define("problem_kimi_no_begin", "This call has arguments but not its <|tool_call_begin|> token, so it was not run. Write the whole call section again."),
	uitext.Define("problem_tool_call_block_unreadable", "This tool_call block holds no tool call Airlock can read, so nothing was run. Write each call as an invoke."),
	uitext.Define("problem_arrow_unreadable", `The [TOOL_CALL] block of {{name}} could not be read, so it was not run. Write {tool => "name", args => {--key "value"}}.`),
	uitext.Define("problem_more_calls", `{{count}} more tool calls in this message were not turned into cards: Airlock takes at most {{max}} calls from one message. Make fewer calls at a time.`),
	uitext.Define("problem_more_problems", `{{count}} more problems were found in this message and not listed.`),
}

// problemText is the problem's sentence coded: the registry's own Text
// (an unknown tool, arguments its schema refuses) when err carries it,
// else the parser's sentence by its template; nil when neither.
func problemText(msg string, err error) *uitext.Text {
	if t, ok := uitext.Whole(err); ok && t.English == msg {
		return &t
	}
	if t, ok := uitext.Match(msg, problemTemplates...); ok {
		return &t
	}
	return nil
}

// codeProblems fills in the Text of each problem that has none.
func codeProblems(ps []chat.Problem) {
	for i := range ps {
		if ps[i].Text == nil {
			ps[i].Text = problemText(ps[i].Message, nil)
		}
	}
}
