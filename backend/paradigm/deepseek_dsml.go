package paradigm

// DeepSeek V3.2 and V4's DSML: the invoke shape (minimax.go) with ｜DSML｜
// in every tag: <｜DSML｜function_calls> (V3.2) or <｜DSML｜tool_calls> (V4)
// around <｜DSML｜invoke name="f"><｜DSML｜parameter name="k" string="true">v
// </｜DSML｜parameter></｜DSML｜invoke>.

const FormatDSML = "deepseek_dsml"

var dsmlParser = &parser{
	families: []Family{{ID: FormatDSML, Name: "DeepSeek DSML", Models: "DeepSeek V3.2, V4",
		Markers: []string{"<｜DSML｜function_calls>", "<｜DSML｜tool_calls>", "<｜DSML｜invoke"},
		Source:  "deepseek-ai DeepSeek-V3.2 encoding docs; vLLM deepseekv32 and deepseekv4 tool parsers",
		Example: "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"read_file\">\n<｜DSML｜parameter name=\"path\" string=\"true\">notes.md</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>"}},
	openers: []opener{{tag: "dsml:function_calls"}, {tag: "dsml:tool_calls"}, {tag: "dsml:invoke"}},
	read: func(s *scanner, r readAt) int {
		if r.g.name == "dsml:invoke" {
			return s.invokeIn(r.j, r.g, "", r.hi, true)
		}
		return s.invokeList(r.j, r.g.end, r.g.closer(), "", r.hi)
	},
}

// GigaChat 3.5 writes the same shape with ｜GCML｜ (read through the
// invoke parser, which names the family by the namespace).
const FormatGigaChat = "gigachat"

var gigaChatFamily = &parser{
	families: []Family{{ID: FormatGigaChat, Name: "GigaChat", Models: "GigaChat 3, 3.5",
		Markers: []string{"<｜GCML｜tool_calls>", "<｜GCML｜invoke", "function call<|role_sep|>"},
		Source:  "vLLM gigachat3 and gigachat35 tool parsers",
		Example: "<｜GCML｜tool_calls><｜GCML｜invoke name=\"read_file\"><｜GCML｜parameter name=\"path\" string=\"true\">notes.md</｜GCML｜parameter></｜GCML｜invoke></｜GCML｜tool_calls>"}},
}
