package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func TestEval(t *testing.T) {
	cases := []struct {
		in   string
		want float64
	}{
		{"1+2*3", 7}, {"(1+2)*3", 9}, {"2^10", 1024}, {"2^3^2", 512}, {"-2^2", 4}, {"10 % 4", 2},
		{"sqrt(16) + abs(-3)", 7}, {"max(1, 5, 3) - min(4, 2)", 3}, {"1.5e3 / 3", 500}, {"1_000 * 2", 2000},
		{"round(2.5)", 3}, {"pi > 3", 0}, // ">" is not an operator: error case below
	}
	for _, c := range cases[:len(cases)-1] {
		got, err := Eval(c.in)
		if err != nil || got != c.want {
			t.Errorf("Eval(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "1+", "(1", "foo(2)", "sqrt 2", "1/0", "pi > 3", "sqrt(1,2)", strings.Repeat("(", 500) + "1" + strings.Repeat(")", 500), "2**3"} {
		if v, err := Eval(bad); err == nil {
			t.Errorf("Eval(%q) = %v, want an error", bad, v)
		}
	}
}

func TestBuiltinsRunThroughToolbox(t *testing.T) {
	box, err := NewToolbox(Builtins()...)
	if err != nil {
		t.Fatal(err)
	}
	name, args, err := box.Registry().Validate("Calculate", json.RawMessage(`{"expression":"6*7"}`))
	if err != nil || name != "calculate" {
		t.Fatalf("validate: %q %v", name, err)
	}
	tool, ok := box.Get(name)
	if !ok {
		t.Fatal("calculate missing")
	}
	out, err := tool.Run(context.Background(), Env{}, args)
	if err != nil || out.Text != "42" {
		t.Fatalf("run: %q %v", out.Text, err)
	}
	ct, _ := box.Get("get_current_time")
	out, err = ct.Run(context.Background(), Env{}, json.RawMessage(`{"timezone":"Asia/Tokyo"}`))
	if err != nil || !strings.Contains(out.Text, "Asia/Tokyo") {
		t.Fatalf("time: %q %v", out.Text, err)
	}
	if _, err := ct.Run(context.Background(), Env{}, json.RawMessage(`{"timezone":"Mars/Base"}`)); err == nil || !strings.Contains(err.Error(), "Mars/Base") {
		t.Fatalf("bad zone: %v", err)
	}
	if _, _, err := box.Registry().Validate("calculate", json.RawMessage(`{}`)); err == nil {
		t.Fatal("missing required expression must fail validation")
	}
}

func FuzzEval(f *testing.F) {
	for _, s := range []string{"1+2", "sqrt(2)^2", "((1))", "-(-(-1))", "max(1,2,3)", "1e308*10"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := Eval(s) // must never panic or hang
		if err == nil && (v != v) {
			t.Fatalf("NaN without error for %q", s)
		}
	})
}
