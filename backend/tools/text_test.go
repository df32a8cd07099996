package tools

import (
	"testing"

	"airlock/backend/tools/ojson"
)

// Values a text format wrote are decided by the schema.
func TestTextIsDecidedByTheSchema(t *testing.T) {
	specs, err := ParseSpecs([]byte(`[{"name":"t","parameters":{"type":"object","properties":{
		"s":{"type":"string"},"i":{"type":"integer"},"n":{"type":"number"},"b":{"type":"boolean"},
		"u":{"type":["string","integer"]},"ns":{"type":["null","string"]},"o":{"type":"object"},"a":{"type":"array"},
		"so":{"type":["string","object"]},
		"ref":{"$ref":"#/$defs/Loc"}},
		"$defs":{"Loc":{"type":"object","properties":{"zip":{"type":"integer"}}}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRegistry(specs)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		key  string
		in   Text
		want string
	}{
		{"s", Text{S: "007"}, `"007"`},
		{"i", Text{S: "42"}, `42`},
		{"n", Text{S: "3.0"}, `3.0`},
		{"b", Text{S: "true"}, `true`},
		{"u", Text{S: "42"}, `42`}, // the non-string reading wins where it parses
		{"u", Text{S: "abc"}, `"abc"`},
		{"ns", Text{S: "null"}, `null`},
		{"ns", Text{S: "None"}, `null`},
		{"ns", Text{S: "x"}, `"x"`},
		{"o", Text{S: `{"k": 1}`}, `{"k":1}`},
		{"o", Text{S: "{'k': True}", Lit: ojson.Object{{Key: "k", Value: true}}}, `{"k":true}`},
		{"a", Text{S: "[1, 2]"}, `[1,2]`},
		{"so", Text{S: "{not json"}, `"{not json"`}, // not repaired into an object
		{"s", Text{S: "null", JSON: true}, `"null"`},
		{"ns", Text{S: "null", JSON: true}, `null`},
		{"ref", Text{S: `{"zip": "018956"}`}, `{"zip":18956}`}, // through a local $ref
		{"extra", Text{S: "x"}, `"x"`},                         // a key the schema doesn't have
	} {
		_, got := r.Normalize("t", ojson.Object{{Key: tc.key, Value: tc.in}})
		if v, _ := got.Get(tc.key); string(ojson.Encode(v)) != tc.want {
			t.Errorf("%s %+v: got %s, want %s", tc.key, tc.in, ojson.Encode(v), tc.want)
		}
	}
}

// Without a schema, text stays text; text the format says is JSON is
// decoded.
func TestSettle(t *testing.T) {
	v := Settle(ojson.Object{{Key: "a", Value: Text{S: "3"}}, {Key: "b", Value: []any{Text{S: "[1]", JSON: true}}}})
	if got := string(ojson.Encode(v)); got != `{"a":"3","b":[[1]]}` {
		t.Errorf("got %s", got)
	}
}

// Hand-written schemas: type names JSON Schema doesn't know are mapped,
// or dropped, so the tool still works.
func TestSchemaTypeAliases(t *testing.T) {
	specs, err := ParseSpecs([]byte(`[{"name":"t","parameters":{"type":"object","properties":{
		"f":{"type":"float"},"u":{"type":"uint32"},"l":{"type":"list"},"x":{"type":"whatever"}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRegistry(specs)
	if err != nil {
		t.Fatalf("aliased types should compile: %v", err)
	}
	_, args, err := r.Check("t", ojson.Object{{Key: "f", Value: "1.5"}, {Key: "u", Value: "7"}, {Key: "l", Value: "[1]"}, {Key: "x", Value: "y"}})
	if err != nil || string(ojson.Encode(args)) != `{"f":1.5,"u":7,"l":[1],"x":"y"}` {
		t.Errorf("got %s, %v", ojson.Encode(args), err)
	}
}

// A model that wraps every argument in one more object is unwrapped when
// the tool has no parameter by that name.
func TestUnwrapArguments(t *testing.T) {
	r := registry(t)
	for _, in := range []ojson.Object{
		{{Key: "arguments", Value: ojson.Object{{Key: "path", Value: "a"}}}},
		{{Key: "arguments", Value: `{"path": "a"}`}},
		{{Key: "arguments", Value: Text{S: `{"path": "a"}`}}},
	} {
		name, args, err := r.Check("read_file", in)
		if err != nil || name != "read_file" || string(ojson.Encode(args)) != `{"path":"a"}` {
			t.Errorf("%v: got %s %s %v", in, name, ojson.Encode(args), err)
		}
	}
}

// On an error Check still returns what it read, for the problem card.
func TestCheckReturnsArgumentsOnError(t *testing.T) {
	r := registry(t)
	_, args, err := r.Check("read_file", ojson.Object{{Key: "limit", Value: Text{S: "5"}}})
	if err == nil || string(ojson.Encode(args)) != `{"limit":5}` {
		t.Errorf("got %s, %v", ojson.Encode(args), err)
	}
	_, args, err = r.Check("nope", ojson.Object{{Key: "k", Value: Text{S: "v"}}})
	if err == nil || string(ojson.Encode(args)) != `{"k":"v"}` {
		t.Errorf("unknown tool: got %s, %v", ojson.Encode(args), err)
	}
}
