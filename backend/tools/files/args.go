package files

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"airlock/backend/workspace"
)

// A tool's arguments are described once, by their Go type:
//
//   - the `json` name is the property; a field without omitempty is required;
//   - the `jsonschema` tag is the property's description (the library's syntax);
//   - `minimum`, `maximum` and `minLength` tags give the limits the library
//     cannot infer from a type;
//   - `airlock:"path"` marks a path in the workspace (tools.Tool.PathArgs).
//
// argsSchema derives the JSON Schema the model reads from it, and decodeArgs
// checks the keys that schema requires.

// flexInt accepts 5, 5.0 and "5" (models are not always careful).
type flexInt struct {
	set bool
	n   int
}

func (f *flexInt) UnmarshalJSON(b []byte) error {
	s := strings.Trim(strings.TrimSpace(string(b)), `"`)
	if s == "null" || s == "" {
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v != float64(int(v)) {
		return fmt.Errorf("%s is not a whole number", string(b))
	}
	f.set, f.n = true, int(v)
	return nil
}

// flexBool accepts true and "true".
type flexBool bool

func (f *flexBool) UnmarshalJSON(b []byte) error {
	s := strings.ToLower(strings.Trim(strings.TrimSpace(string(b)), `"`))
	switch s {
	case "true", "1", "yes":
		*f = true
	case "false", "0", "no", "null", "":
		*f = false
	default:
		return fmt.Errorf("%s is not true or false", string(b))
	}
	return nil
}

// lenientTypes are told to the model as the types they accept strictly.
var lenientTypes = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[flexInt]():  {Type: "integer"},
	reflect.TypeFor[flexBool](): {Type: "boolean"},
}

// pathArgs names the fields of Args tagged `airlock:"path"`: the arguments
// that are paths in the workspace, which rules on folders look at.
func pathArgs[Args any]() []string {
	var out []string
	for _, f := range reflect.VisibleFields(reflect.TypeFor[Args]()) {
		if f.Tag.Get("airlock") == "path" {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			out = append(out, name)
		}
	}
	return out
}

// argsSchema derives the JSON Schema of the arguments type Args, and the
// keys it requires. A type it cannot describe is a programming error.
func argsSchema[Args any]() (json.RawMessage, []string) {
	s, err := jsonschema.For[Args](&jsonschema.ForOptions{TypeSchemas: lenientTypes})
	if err != nil {
		panic("files: " + err.Error())
	}
	if err := addLimits(s, reflect.TypeFor[Args]()); err != nil {
		panic(fmt.Sprintf("files: %T: %v", *new(Args), err))
	}
	raw, err := json.Marshal(s)
	if err != nil {
		panic("files: " + err.Error())
	}
	return raw, s.Required
}

// addLimits copies the minimum, maximum and minLength tags of the fields of
// t onto their properties in s.
func addLimits(s *jsonschema.Schema, t reflect.Type) error {
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		prop := s.Properties[name]
		if prop == nil {
			continue
		}
		for _, key := range []string{"minimum", "maximum", "minLength"} {
			v, ok := f.Tag.Lookup(key)
			if !ok {
				continue
			}
			n, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("field %s: %s=%q is not a whole number", f.Name, key, v)
			}
			switch key {
			case "minimum":
				prop.Minimum = jsonschema.Ptr(float64(n))
			case "maximum":
				prop.Maximum = jsonschema.Ptr(float64(n))
			case "minLength":
				prop.MinLength = jsonschema.Ptr(n)
			}
		}
	}
	return nil
}

// decodeArgs reads the arguments object into v, checking required keys.
func decodeArgs(tool string, raw json.RawMessage, v any, required ...string) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		return coded(workspace.CodeInvalidArgs, txtArgsNotObject, "tool", tool, "reason", err.Error())
	}
	for _, k := range required {
		if v, ok := keys[k]; !ok || string(v) == "null" {
			return coded(workspace.CodeInvalidArgs, txtArgsMissing, "tool", tool, "name", strconv.Quote(k))
		}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return coded(workspace.CodeInvalidArgs, txtArgsWrongType, "tool", tool, "name", strconv.Quote(te.Field), "type", te.Type.Kind().String())
		}
		return coded(workspace.CodeInvalidArgs, txtArgsInvalid, "tool", tool, "reason", err.Error())
	}
	return nil
}
