// Package uitext is how the backend writes a sentence for a person in a
// way the UI can show in the person's language: a stable code, its
// parameters, and the English sentence. The English is what logs, tests
// and the model read, and what the UI shows when it has no translation.
//
// A sentence is declared once, next to the code that writes it:
//
//	var leaves = uitext.Define("path_leaves", "path {{path}} leaves the workspace")
//	...
//	leaves.With("path", quote(p)) // a Text; .English is the sentence
//
// The UI translates `backendText.<code>` with the same parameters
// (frontend/src/i18n/backendText.ts). Every code is listed, with its English
// template, in frontend/src/i18n/backendText.en.ts, generated from All()
// (a facade test keeps it current); backendText.zh.ts must translate each.
// A parameter may itself be a Text (a reason inside a sentence): the UI
// translates it first.
package uitext

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Text is a sentence for a person.
type Text struct {
	Code string `json:"code"`
	// Params are the values of the template's {{placeholders}}: strings,
	// Texts translated in their turn, or lists of Texts (joined by "; ").
	Params  map[string]any `json:"params,omitempty"`
	English string         `json:"english"`
}

// String is the English sentence.
func (t Text) String() string { return t.English }

// IsZero reports a Text with no sentence.
func (t Text) IsZero() bool { return t.Code == "" && t.English == "" }

// Ptr is t as a pointer, nil for the zero Text (for omitempty fields).
func (t Text) Ptr() *Text {
	if t.IsZero() {
		return nil
	}
	return &t
}

// Template is a declared sentence: a code and its English template.
type Template struct {
	code, english string
	matcher       *regexp.Regexp // for Match
}

var (
	mu       sync.Mutex
	registry = map[string]string{}
	codeRe   = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	holeRe   = regexp.MustCompile(`{{\s*(\w+)\s*}}`)
)

// Define declares a sentence. Codes are lower_snake_case and unique: the
// same code declared twice with another template is a programming error.
func Define(code, english string) Template {
	if !codeRe.MatchString(code) {
		panic("uitext: bad code " + strconvQuote(code))
	}
	mu.Lock()
	defer mu.Unlock()
	if old, ok := registry[code]; ok && old != english {
		panic("uitext: code " + code + " declared twice")
	}
	registry[code] = english
	return Template{code: code, english: english, matcher: matcherOf(english)}
}

// Code is the template's code.
func (t Template) Code() string { return t.code }

// With fills the template: name, value pairs. A value is a string, a
// number, a Text, or an error (its Text when it carries one whole, else
// its message). A placeholder left without a value stays as written.
func (t Template) With(pairs ...any) Text {
	if len(pairs)%2 != 0 {
		panic("uitext: " + t.code + ": odd number of arguments to With")
	}
	var params map[string]any
	if len(pairs) > 0 {
		params = make(map[string]any, len(pairs)/2)
	}
	for i := 0; i < len(pairs); i += 2 {
		name, ok := pairs[i].(string)
		if !ok {
			panic("uitext: " + t.code + ": parameter name is not a string")
		}
		params[name] = param(pairs[i+1])
	}
	return Text{Code: t.code, Params: params, English: fill(t.english, params)}
}

// Error is the template's sentence as an error.
func (t Template) Error(pairs ...any) error { return &Error{Text: t.With(pairs...)} }

func param(v any) any {
	switch x := v.(type) {
	case Text:
		return x
	case []Text: // a list, joined by "; "
		return x
	case *Text:
		if x == nil {
			return ""
		}
		return *x
	case string:
		return x
	case error:
		if tx, ok := Whole(x); ok {
			return tx
		}
		return x.Error()
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

func fill(template string, params map[string]any) string {
	return holeRe.ReplaceAllStringFunc(template, func(hole string) string {
		name := holeRe.FindStringSubmatch(hole)[1]
		v, ok := params[name]
		if !ok {
			return hole
		}
		switch x := v.(type) {
		case Text:
			return x.English
		case []Text:
			parts := make([]string, len(x))
			for i, t := range x {
				parts[i] = t.English
			}
			return strings.Join(parts, "; ")
		}
		return fmt.Sprint(v)
	})
}

// Plain is an uncoded sentence: the UI shows the English as it is.
func Plain(english string) Text { return Text{English: english} }

// Error is an error whose message is a Text.
type Error struct {
	Text Text
	Err  error // wrapped, for errors.Is/As (may be nil)
}

func (e *Error) Error() string         { return e.Text.English }
func (e *Error) Unwrap() error         { return e.Err }
func (e *Error) UIText() Text          { return e.Text }
func (e *Error) Wrap(err error) *Error { e.Err = err; return e }

// Carrier is an error that carries its sentence as a Text.
type Carrier interface{ UIText() Text }

// Whole is the Text of err when one in its chain says the whole message
// (a wrapper that adds words in English only is not translated in part).
func Whole(err error) (Text, bool) {
	if err == nil {
		return Text{}, false
	}
	msg := err.Error()
	for e := err; e != nil; e = errors.Unwrap(e) {
		if c, ok := e.(Carrier); ok {
			if t := c.UIText(); t.English == msg && t.Code != "" {
				return t, true
			}
			return Text{}, false
		}
	}
	return Text{}, false
}

// Of is err's sentence: its Text when it carries one whole, else the
// message as an uncoded Text (zero for nil).
func Of(err error) Text {
	if err == nil {
		return Text{}
	}
	if t, ok := Whole(err); ok {
		return t
	}
	return Plain(err.Error())
}

// All is every declared code with its English template, sorted by code.
func All() []Entry {
	mu.Lock()
	defer mu.Unlock()
	out := make([]Entry, 0, len(registry))
	for c, e := range registry {
		out = append(out, Entry{c, e})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// Entry is one declared sentence.
type Entry struct{ Code, English string }

// Placeholders are the names a template uses, in order of appearance.
func Placeholders(template string) []string {
	var out []string
	for _, m := range holeRe.FindAllStringSubmatch(template, -1) {
		out = append(out, m[1])
	}
	return out
}

func strconvQuote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// Map applies f to the English and to every string parameter, Texts
// within included (to scrub secrets from a sentence, say).
func (t Text) Map(f func(string) string) Text {
	out := Text{Code: t.Code, English: f(t.English)}
	if t.Params != nil {
		out.Params = make(map[string]any, len(t.Params))
		for k, v := range t.Params {
			switch x := v.(type) {
			case Text:
				out.Params[k] = x.Map(f)
			case []Text:
				list := make([]Text, len(x))
				for i, t := range x {
					list[i] = t.Map(f)
				}
				out.Params[k] = list
			case string:
				out.Params[k] = f(x)
			default:
				out.Params[k] = v
			}
		}
	}
	return out
}

// Match codes an English sentence written elsewhere without a code (a
// parser's message, say): the first template whose English, its
// placeholders standing for any text, is the whole sentence. The values
// become the parameters; zero and false when none matches.
func Match(english string, templates ...Template) (Text, bool) {
	for _, t := range templates {
		if t.matcher == nil {
			continue
		}
		m := t.matcher.FindStringSubmatch(english)
		if m == nil {
			continue
		}
		params := map[string]any{}
		for i, name := range t.matcher.SubexpNames() {
			if i > 0 && name != "" {
				params[name] = m[i]
			}
		}
		if len(params) == 0 {
			params = nil
		}
		return Text{Code: t.code, Params: params, English: english}, true
	}
	return Text{}, false
}

// matcherOf is the template as an anchored pattern, a placeholder any text.
func matcherOf(english string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString(`(?s)^`)
	last, seen := 0, map[string]bool{}
	for _, loc := range holeRe.FindAllStringSubmatchIndex(english, -1) {
		b.WriteString(regexp.QuoteMeta(english[last:loc[0]]))
		name := english[loc[2]:loc[3]]
		if seen[name] {
			b.WriteString(`.+?`)
		} else {
			b.WriteString(`(?P<` + name + `>.+?)`)
		}
		seen[name] = true
		last = loc[1]
	}
	b.WriteString(regexp.QuoteMeta(english[last:]) + `$`)
	return regexp.MustCompile(b.String())
}
