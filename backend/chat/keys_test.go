package chat

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestAmbiguousKeys(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 70) + "1" + strings.Repeat("}", 70)
	for _, c := range []struct {
		args string
		want []string
	}{
		{`{"remote":"origin"}`, nil},
		{`{"remote":"origin","REMOTE":"attacker"}`, []string{"REMOTE", "remote"}},
		{`{"a":1,"a":2}`, []string{"a"}},
		{`{"x":[{"k":1,"\u212A":2}]}`, []string{"k", "\u212A"}},
		{`{"stra\u00dfe":1,"STRASSE":2}`, []string{"STRASSE", "stra\u00dfe"}},
		{`{"a":{"b":1},"b":2}`, nil}, // one key per object
		{`not json`, nil},
		{`{"a":1,"a":2`, nil}, // cut short: not JSON
		{`{"a\"b":1,"A\"B":2}`, []string{"A\"B", "a\"b"}},
		{`{"t":"quote \" and \\","T":[true,null,-1.5e3,{}]}`, []string{"T", "t"}},
		{`{"\u0061":1,"a":2}`, []string{"a"}},
		{` [ {"x":1} , {"x":2} ] `, nil}, // one key per object, two objects
		{deep, []string{"…"}},
	} {
		if got := AmbiguousKeys(json.RawMessage(c.args)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %q, want %q", c.args, got, c.want)
		}
	}
}
