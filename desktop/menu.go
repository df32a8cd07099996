package desktop

import (
	"encoding/json"
	goruntime "runtime"
	"strings"

	"github.com/wailsapp/wails/v2/pkg/menu"
	"github.com/wailsapp/wails/v2/pkg/menu/keys"
)

// Events the native menu sends to the UI (runtime.EventsOn in the frontend).
// On Linux and Windows the menu's shortcuts (Ctrl+N, Ctrl+,) are taken by
// the native menu before the page sees the key, so the UI must act on these.
const (
	EventMenuNewChat  = "menu:new-chat"
	EventMenuSettings = "menu:settings"
	EventMenuAbout    = "menu:about"
)

// menuLabels are the native menu's words in one language.
type menuLabels struct {
	File, NewChat, Settings, Quit                 string
	Edit, Undo, Redo, Cut, Copy, Paste, SelectAll string
	Help, OpenDataFolder, About                   string
}

var menuText = map[string]menuLabels{
	"en": {
		File: "File", NewChat: "New Chat", Settings: "Settings…", Quit: "Quit",
		Edit: "Edit", Undo: "Undo", Redo: "Redo", Cut: "Cut", Copy: "Copy", Paste: "Paste", SelectAll: "Select All",
		Help: "Help", OpenDataFolder: "Open Data Folder", About: "About Airlock",
	},
	"zh": {
		File: "文件", NewChat: "新对话", Settings: "设置…", Quit: "退出",
		Edit: "编辑", Undo: "撤销", Redo: "重做", Cut: "剪切", Copy: "复制", Paste: "粘贴", SelectAll: "全选",
		Help: "帮助", OpenDataFolder: "打开数据目录", About: "关于 Airlock",
	},
}

// MenuLanguage picks the menu's language: the app's setting, or for "auto"
// the system locale (LC_ALL, LC_MESSAGES, LANG, as in gettext).
func MenuLanguage(setting string, getenv func(string) string) string {
	if _, ok := menuText[setting]; ok {
		return setting
	}
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(k); v != "" {
			if strings.HasPrefix(strings.ToLower(v), "zh") {
				return "zh"
			}
			return "en"
		}
	}
	return "en"
}

// The Edit menu on Linux and Windows works on the page through script: Wails
// only has native edit roles on macOS. These items carry no shortcuts, so
// Ctrl+C/V/X/Z/A stay with the text fields, which handle them natively.
const (
	jsSelectedText = `(() => { const e = document.activeElement;
  if (e && (e.tagName === 'TEXTAREA' || (e.tagName === 'INPUT' && e.type !== 'password')) && typeof e.selectionStart === 'number')
    return { text: e.value.slice(e.selectionStart, e.selectionEnd), editable: !e.readOnly && !e.disabled };
  return { text: String(window.getSelection() || ''), editable: false }; })()`
	jsCopy = `(() => { const s = ` + jsSelectedText + `; if (s.text && window.runtime) window.runtime.ClipboardSetText(s.text); })()`
	jsCut  = `(() => { const s = ` + jsSelectedText + `; if (s.text && window.runtime) { window.runtime.ClipboardSetText(s.text); if (s.editable) document.execCommand('delete'); } })()`
)

func jsExec(cmd string) string { return `document.execCommand('` + cmd + `')` }

// jsInsertText types s at the caret like a paste (input events included).
func jsInsertText(s string) string {
	b, _ := json.Marshal(s) // a JSON string is a JavaScript string literal (U+2028/9 are escaped)
	return `document.execCommand('insertText', false, ` + string(b) + `)`
}

// AppMenu is the native menu bar. macOS gets the standard app, Edit and
// Window menus (with their roles); Linux and Windows a File / Edit / Help bar.
func AppMenu(d *Desktop, lang string) *menu.Menu {
	t := menuText[lang]
	if t.File == "" {
		t = menuText["en"]
	}
	mac := goruntime.GOOS == "darwin"
	emit := func(name string) menu.Callback { return func(*menu.CallbackData) { d.emit(name) } }

	m := menu.NewMenu()
	if mac {
		m.Append(menu.AppMenu())
	}
	file := m.AddSubmenu(t.File)
	file.AddText(t.NewChat, keys.CmdOrCtrl("n"), emit(EventMenuNewChat))
	file.AddText(t.Settings, keys.CmdOrCtrl(","), emit(EventMenuSettings))
	if !mac { // on macOS Quit is in the app menu
		file.AddSeparator()
		file.AddText(t.Quit, keys.CmdOrCtrl("q"), func(*menu.CallbackData) { d.quit() })
	}

	if mac {
		m.Append(menu.EditMenu())
		m.Append(menu.WindowMenu())
	} else {
		edit := m.AddSubmenu(t.Edit)
		edit.AddText(t.Undo, nil, func(*menu.CallbackData) { d.execJS(jsExec("undo")) })
		edit.AddText(t.Redo, nil, func(*menu.CallbackData) { d.execJS(jsExec("redo")) })
		edit.AddSeparator()
		edit.AddText(t.Cut, nil, func(*menu.CallbackData) { d.execJS(jsCut) })
		edit.AddText(t.Copy, nil, func(*menu.CallbackData) { d.execJS(jsCopy) })
		edit.AddText(t.Paste, nil, func(*menu.CallbackData) {
			if s := d.clipboardText(); s != "" {
				d.execJS(jsInsertText(s))
			}
		})
		edit.AddSeparator()
		edit.AddText(t.SelectAll, nil, func(*menu.CallbackData) { d.execJS(jsExec("selectAll")) })
	}

	help := m.AddSubmenu(t.Help)
	help.AddText(t.OpenDataFolder, nil, func(*menu.CallbackData) {
		if err := OpenFolder(d.dataDir); err != nil {
			d.log.Error("opening the data folder", "dir", d.dataDir, "err", err)
		}
	})
	help.AddSeparator()
	help.AddText(t.About, nil, emit(EventMenuAbout))
	return m
}
