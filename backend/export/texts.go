package export

import "airlock/backend/uitext"

// Why a file cannot be imported, coded for the UI's language (the Data
// panel and the agents' import show these). importError writes the English
// as before; the reasons a person meets most are matched back to their
// codes here, word for word. The rest (a field's path inside the file and
// what is wrong with it) stay English inside the translated frame.
var txtCannotImport = uitext.Define("cannot_import", "cannot import: {{reason}}")

var importTemplates = []uitext.Template{
	uitext.Define("import_empty", "the file is empty"),
	uitext.Define("import_truncated", "the file is truncated at byte {{at}}: the JSON stops before it is complete (was the export or the download interrupted?)"),
	uitext.Define("import_bad_json_at", "the file is not valid JSON: {{error}} at byte {{at}} (line {{line}}, column {{column}})"),
	uitext.Define("import_bad_json", "the file is not valid JSON: {{error}}"),
	uitext.Define("import_too_large", "the file is {{size}} bytes, larger than {{max}} bytes, the limit for an import"),
	uitext.Define("import_larger_than", "the file is larger than {{max}} bytes, the limit for an import"),
	uitext.Define("import_reading", "reading the file: {{error}}"),
	uitext.Define("import_nothing", "nothing to import: the export holds no chats"),
	uitext.Define("import_not_recognised", "not an Airlock export or a ChatGPT conversations.json: the file holds {{what}}"),
	uitext.Define("import_array_not_object", "not an Airlock export: the file holds a JSON array, not an object (a ChatGPT conversations.json? Read detects those)"),
	uitext.Define("import_no_format", `not an Airlock export: it has no "format" field`),
	uitext.Define("import_wrong_format", `not an Airlock export: "format" is {{format}}, want {{want}}`),
	uitext.Define("import_version", "unsupported export version {{version}} (this Airlock reads version {{want}})"),
	uitext.Define("import_not_chatgpt", "not a ChatGPT export: want an array of conversations, got {{what}}"),
	uitext.Define("import_not_agents", "not a file of agents: {{error}}"),
	uitext.Define("import_not_agents_format", "not a file of agents (format {{format}}, want {{want}})"),
	uitext.Define("import_agents_version", "unsupported agents file version {{version}} (this Airlock reads version {{want}})"),
	uitext.Define("import_no_agents", "the file holds no agents"),
	uitext.Define("import_too_many_agents", "the file holds {{n}} agents; at most {{max}} can be imported"),
}
