package facade

import (
	"path/filepath"
	"strings"
	"testing"

	"airlock/backend/chat"
)

func TestAbout(t *testing.T) {
	a := &App{dataDir: "/data/Airlock"}
	info := a.About()
	if info.Name != "Airlock" || info.Version != Version || info.DataDir != "/data/Airlock" ||
		info.LogFile != filepath.Join("/data/Airlock", "logs", "airlock.log") || !strings.Contains(info.Platform, "/") {
		t.Errorf("About() = %+v", info)
	}
}

// Saved settings reach the native side (the menu's language, the theme).
func TestSaveSettingsTellsTheDesktop(t *testing.T) {
	a := testApp(t)
	var got []chat.Settings
	a.settingsSaved = func(s chat.Settings) { got = append(got, s) }
	s, err := a.GetSettings()
	if err != nil {
		t.Fatal(err)
	}
	s.Language, s.Theme = "zh", "dark"
	if _, err := a.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Language != "zh" || got[0].Theme != "dark" {
		t.Fatalf("the desktop was told %+v", got)
	}
	s.Language = "klingon"
	if _, err := a.SaveSettings(s); err == nil || len(got) != 1 {
		t.Fatalf("a refused save must not reach the desktop: %v %+v", err, got)
	}
}
