package uitext

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

var (
	tplGreet = Define("test_greet", "hello {{name}}, you have {{count}}")
	tplCount = Define("test_count", "{{n}} messages")
	tplBare  = Define("test_bare", "nothing to fill")
)

func TestWithFillsTheEnglishAndKeepsCodeAndParams(t *testing.T) {
	tx := tplGreet.With("name", "Ada", "count", tplCount.With("n", 3))
	if tx.English != "hello Ada, you have 3 messages" || tx.Code != "test_greet" {
		t.Fatalf("%+v", tx)
	}
	if tx.Params["name"] != "Ada" {
		t.Fatalf("params %+v", tx.Params)
	}
	inner, ok := tx.Params["count"].(Text)
	if !ok || inner.Code != "test_count" || inner.Params["n"] != "3" {
		t.Fatalf("nested %+v", tx.Params["count"])
	}
	if got := tplBare.With(); got.English != "nothing to fill" || got.Params != nil {
		t.Fatalf("%+v", got)
	}
}

func TestWholeOnlyWhenTheTextSaysTheWholeMessage(t *testing.T) {
	err := tplCount.Error("n", 2)
	if tx, ok := Whole(err); !ok || tx.Code != "test_count" {
		t.Fatalf("bare: %+v %v", tx, ok)
	}
	if tx, ok := Whole(fmt.Errorf("%w", err)); !ok || tx.Code != "test_count" {
		t.Fatalf("wrapped without words: %+v %v", tx, ok)
	}
	if _, ok := Whole(fmt.Errorf("saving: %w", err)); ok {
		t.Fatal("a wrapper that adds English must not be translated in part")
	}
	if _, ok := Whole(errors.New("plain")); ok {
		t.Fatal("plain error coded")
	}
	if got := Of(errors.New("plain")); got.Code != "" || got.English != "plain" {
		t.Fatalf("Of plain = %+v", got)
	}
	// An error as a parameter: its sentence when coded whole, else its words.
	tx := tplGreet.With("name", "Bo", "count", err)
	if _, ok := tx.Params["count"].(Text); !ok || tx.English != "hello Bo, you have 2 messages" {
		t.Fatalf("%+v", tx)
	}
	if tx := tplGreet.With("name", "Bo", "count", errors.New("x")); tx.Params["count"] != "x" {
		t.Fatalf("%+v", tx)
	}
}

func TestMapReachesNestedParameters(t *testing.T) {
	tx := tplGreet.With("name", "sk-secret", "count", tplCount.With("n", "sk-secret"))
	m := tx.Map(func(s string) string { return strings.ReplaceAll(s, "sk-secret", "•••") })
	if strings.Contains(fmt.Sprint(m), "sk-secret") || m.Params["name"] != "•••" || m.Params["count"].(Text).Params["n"] != "•••" {
		t.Fatalf("%+v", m)
	}
}

func TestDefineRefusesBadAndDoubleCodes(t *testing.T) {
	for _, f := range []func(){
		func() { Define("Bad-Code", "x") },
		func() { Define("test_greet", "another template") },
		func() { tplGreet.With("name") },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		}()
	}
	Define("test_greet", "hello {{name}}, you have {{count}}") // the same again is fine
	found := false
	for _, e := range All() {
		if e.Code == "test_greet" {
			found = e.English == "hello {{name}}, you have {{count}}"
		}
	}
	if !found {
		t.Fatal("All misses a code")
	}
	if got := Placeholders("a {{x}} b {{ y }}"); strings.Join(got, ",") != "x,y" {
		t.Fatal(got)
	}
}

func TestMatchCodesAnEnglishSentenceByItsTemplate(t *testing.T) {
	tx, ok := Match("hello Ada (1+1), you have 3 messages", tplBare, tplGreet)
	if !ok || tx.Code != "test_greet" || tx.Params["name"] != "Ada (1+1)" || tx.Params["count"] != "3 messages" {
		t.Fatalf("%+v %v", tx, ok)
	}
	if tx.English != "hello Ada (1+1), you have 3 messages" {
		t.Fatal(tx.English)
	}
	if _, ok := Match("hello Ada, you have 3 messages and more.", tplGreet); !ok {
		t.Log("a trailing sentence is part of the last value") // .+? anchored at $: the rest is the last value
	}
	if _, ok := Match("goodbye Ada", tplGreet, tplBare); ok {
		t.Fatal("matched an unrelated sentence")
	}
	if tx, ok := Match("nothing to fill", tplGreet, tplBare); !ok || tx.Code != "test_bare" || tx.Params != nil {
		t.Fatalf("%+v", tx)
	}
}
