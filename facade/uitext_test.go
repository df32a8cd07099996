package facade

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/uitext"
	"airlock/backend/workspace"
)

// backendTextFile lists every sentence code the backend can send the UI,
// with its English template: the frontend checks that each has a Chinese
// translation (backendText.test.ts). The facade links every package that
// declares one, so its test sees them all.
const backendTextFile = "../frontend/src/i18n/backendText.en.ts"

func backendTextCatalog() string {
	var b strings.Builder
	b.WriteString("// Generated from the backend's sentence declarations (backend/uitext) by\n")
	b.WriteString("// `UPDATE_BACKEND_TEXT=1 go test -tags desktop,production,webkit2_41 ./facade -run TestBackendTextCatalog`.\n")
	b.WriteString("// Do not edit: change the Go declaration, then translate in backendText.zh.ts.\n")
	b.WriteString("export const backendTextEn = {\n")
	for _, e := range uitext.All() {
		fmt.Fprintf(&b, "  %s: %s,\n", e.Code, tsString(e.English))
	}
	b.WriteString("}\n")
	return b.String()
}

func tsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`)
	return "'" + r.Replace(s) + "'"
}

func TestBackendTextCatalogIsCurrent(t *testing.T) {
	want := backendTextCatalog()
	if os.Getenv("UPDATE_BACKEND_TEXT") != "" {
		if err := os.WriteFile(backendTextFile, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(filepath.Clean(backendTextFile))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("%s is out of date: run UPDATE_BACKEND_TEXT=1 go test -tags desktop,production,webkit2_41 ./facade -run TestBackendTextCatalog", backendTextFile)
	}
	if n := len(uitext.All()); n < 100 {
		t.Fatalf("only %d codes declared: a package that declares sentences is not linked", n)
	}
}

// An error coded whole reaches the UI with its code and parameters; one a
// wrapper added English to keeps only the English.
func TestAPIErrorsCarryTheirCodedSentence(t *testing.T) {
	_, err := workspace.CleanPath("../secret")
	var ae apiError
	if !errors.As(toAPI(err), &ae) || ae.Text == nil {
		t.Fatalf("no text: %#v", toAPI(err))
	}
	if ae.Code != workspace.CodePathOutside || ae.Text.Code != "path_leaves" || ae.Text.Params["path"] != `"../secret"` || ae.Text.English != ae.Message {
		t.Fatalf("text = %+v (code %s, message %q)", ae.Text, ae.Code, ae.Message)
	}
	wrapped := fmt.Errorf("saving: %w", err)
	if !errors.As(toAPI(wrapped), &ae) || ae.Text != nil {
		t.Fatalf("a wrapped sentence was coded: %+v", ae.Text)
	}
	plain := chat.Errorf("x", nil, "plain")
	if !errors.As(toAPI(plain), &ae) || ae.Text != nil || ae.Message != "plain" {
		t.Fatalf("plain: %+v", ae)
	}
}

// Every declared sentence fills whole: each placeholder a name, none left
// over, and no two codes for the same English.
func TestEveryDeclaredSentenceFills(t *testing.T) {
	seen := map[string]string{}
	for _, e := range uitext.All() {
		var pairs []any
		for _, name := range uitext.Placeholders(e.English) {
			pairs = append(pairs, name, "X")
		}
		tx := uitext.Define(e.Code, e.English).With(pairs...)
		if tx.Code != e.Code || strings.Contains(tx.English, "{{") {
			t.Errorf("%s: %+v", e.Code, tx)
		}
		if other, ok := seen[e.English]; ok {
			t.Errorf("%s and %s say the same %q", other, e.Code, e.English)
		}
		seen[e.English] = e.Code
	}
}
