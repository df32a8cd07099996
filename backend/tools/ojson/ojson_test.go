package ojson

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRoundTripKeepsOrder(t *testing.T) {
	in := `{"z":1,"a":[true,false,null,"s\n\"<>&\u2028"],"m":{"y":2.50,"x":-1e3},"z":3}`
	v, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	got := string(Encode(v))
	want := `{"z":3,"a":[true,false,null,"s\n\"<>&\u2028"],"m":{"y":2.50,"x":-1e3}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if !json.Valid([]byte(got)) {
		t.Error("invalid JSON")
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, in := range []string{``, `{`, `{"a":}`, `[1,]`, `{} x`, strings.Repeat("[", MaxDepth+5) + strings.Repeat("]", MaxDepth+5)} {
		if _, err := Decode([]byte(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
	v, n, err := DecodePrefix([]byte(`{"a":1} {"b":2}`))
	if err != nil || n != 7 || string(Encode(v)) != `{"a":1}` {
		t.Errorf("%v %d %v", v, n, err)
	}
}

func TestEncodeInvalidUTF8(t *testing.T) {
	got := string(Encode("a\xffb"))
	if got != `"a\ufffdb"` {
		t.Errorf("%s", got)
	}
}

func TestPlainAndSet(t *testing.T) {
	o := Object{}
	o.Set("a", 1)
	o.Set("b", Object{{"c", []any{Object{{"d", true}}}}})
	o.Set("a", 2)
	if v, _ := o.Get("a"); v != 2 || len(o) != 2 {
		t.Errorf("%v", o)
	}
	p := Plain(o).(map[string]any)
	if p["b"].(map[string]any)["c"].([]any)[0].(map[string]any)["d"] != true {
		t.Errorf("%v", p)
	}
}
