package desktop

import (
	"strings"
	"testing"
)

func TestMenuLanguage(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		setting string
		env     map[string]string
		want    string
	}{
		{"zh", map[string]string{"LANG": "en_US.UTF-8"}, "zh"},
		{"en", map[string]string{"LANG": "zh_CN.UTF-8"}, "en"},
		{"auto", map[string]string{"LANG": "zh_CN.UTF-8"}, "zh"},
		{"auto", map[string]string{"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}, "en"},
		{"auto", map[string]string{"LC_MESSAGES": "zh_TW.UTF-8"}, "zh"},
		{"auto", nil, "en"},
		{"", map[string]string{"LANG": "de_DE.UTF-8"}, "en"},
	}
	for _, c := range cases {
		if got := MenuLanguage(c.setting, env(c.env)); got != c.want {
			t.Errorf("MenuLanguage(%q, %v) = %q, want %q", c.setting, c.env, got, c.want)
		}
	}
}

func TestMenuLabelsComplete(t *testing.T) {
	for lang, l := range menuText {
		for i, s := range []string{l.File, l.NewChat, l.Settings, l.Quit, l.Edit, l.Undo, l.Redo, l.Cut, l.Copy,
			l.Paste, l.SelectAll, l.Help, l.OpenDataFolder, l.About} {
			if s == "" {
				t.Errorf("%s: label %d is empty", lang, i)
			}
		}
	}
}

func TestJSInsertTextIsALiteral(t *testing.T) {
	got := jsInsertText("a'b\"c\n</script>\u2028`${x}`")
	want := `document.execCommand('insertText', false, "a'b\"c\n\u003c/script\u003e\u2028` + "`${x}`" + `")`
	if got != want {
		t.Errorf("jsInsertText = %s\nwant %s", got, want)
	}
	if strings.Contains(got, "\u2028") {
		t.Error("U+2028 must be escaped")
	}
}

func TestMenuEventNames(t *testing.T) {
	// The UI listens for these names; changing one breaks the menu silently.
	if EventMenuNewChat != "menu:new-chat" || EventMenuSettings != "menu:settings" || EventMenuAbout != "menu:about" {
		t.Error("menu event names changed")
	}
}
