package demomodel

import (
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
)

// starters reads the empty chat's starter prompts from the UI's language
// file, so a starter added or reworded there is checked here too.
func starters(t *testing.T, lang string) map[string]string {
	t.Helper()
	src, err := os.ReadFile("../../frontend/src/i18n/" + lang + ".ts")
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(src), "prompts: {")
	if i < 0 {
		t.Fatalf("%s: no starters", lang)
	}
	block := string(src[i:])
	block = block[:strings.Index(block, "\n    },")]
	out := map[string]string{}
	re := regexp.MustCompile(`(?s)(\w+): \{\s*prompt: '([^']*)'`)
	for _, m := range re.FindAllStringSubmatch(block, -1) {
		out[m[1]] = m[2]
	}
	if len(out) < 6 {
		t.Fatalf("%s: starters read: %v", lang, out)
	}
	return out
}

// The demo model understands its own starters in every UI language: each
// does what it promises, not the generic intro.
func TestStartersWorkInEveryLanguage(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		for key, say := range starters(t, lang) {
			r := choose(Prompt{Model: "airlock-demo", LastUser: say, Tools: []string{"get_current_time", "calculate"},
				Messages: []PromptMessage{{Role: "user", Content: say}}})
			ok := true
			switch key {
			case "whatIs":
				ok = strings.Contains(r.Text, "Airlock")
			case "markdown":
				ok = r.Text == markdownText
			case "think":
				ok = r.Reasoning == thinkReasoning
			case "story":
				ok = r.Text == slowText
			case "error":
				ok = r.Status == http.StatusInternalServerError
			case "tools":
				ok = len(r.ToolCalls) == 1 && r.ToolCalls[0].Name == "get_current_time"
			default:
				t.Errorf("%s: a starter %q this test does not know; say what it should do", lang, key)
			}
			if !ok {
				t.Errorf("%s starter %s (%q) got %+v", lang, key, say, r)
			}
		}
	}
}

func TestIntentAddsCues(t *testing.T) {
	for in, want := range map[string]string{
		"模拟错误 500":   "error 500",
		"錯誤429":      "error 429",
		"现在几点了？":     "time",
		"帮我计算 17*23": "calc",
		"hello":      "",
	} {
		got := intent(in)
		if want == "" && got != in || want != "" && !strings.Contains(got, want) {
			t.Errorf("intent(%q) = %q, want it to hold %q", in, got, want)
		}
	}
}
