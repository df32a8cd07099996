package tools

import (
	"airlock/backend/uitext"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Builtins are the harmless tools every chat has.
func Builtins() []Tool { return []Tool{CurrentTime(), Calculate()} }

// CurrentTime tells the date and time, optionally in a time zone.
func CurrentTime() Tool {
	return Tool{
		Spec: Spec{
			Name:        "get_current_time",
			Description: "Get the current date and time. Use it whenever the answer depends on today's date or the time of day.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"timezone":{"type":"string",` +
				`"description":"IANA time zone such as \"Europe/Paris\" or \"America/New_York\". Omit for UTC."}},"additionalProperties":false}`),
		},
		Kind: KindBuiltin,
		Run: TextRun(func(_ context.Context, _ Env, raw json.RawMessage) (string, error) {
			var args struct {
				Timezone string `json:"timezone"`
			}
			if err := json.Unmarshal(nonEmpty(raw), &args); err != nil {
				return "", err
			}
			loc := time.UTC
			if tz := strings.TrimSpace(args.Timezone); tz != "" {
				l, err := time.LoadLocation(tz)
				if err != nil {
					return "", txtUnknownZone.Error("zone", strconv.Quote(tz))
				}
				loc = l
			}
			now := time.Now().In(loc)
			return fmt.Sprintf("%s (%s, %s)", now.Format(time.RFC3339), now.Weekday(), loc), nil
		}),
	}
}

// Calculate evaluates an arithmetic expression exactly as written, so the
// model does not have to do arithmetic in its head.
func Calculate() Tool {
	return Tool{
		Spec: Spec{
			Name: "calculate",
			Description: "Evaluate an arithmetic expression and return the number. Supports + - * / % ^ (power), " +
				"parentheses, and sqrt, abs, round, floor, ceil, ln, log10, sin, cos, tan, min, max, pi, e. Example: \"(17 * 23) / 4 + sqrt(2)\".",
			Parameters: json.RawMessage(`{"type":"object","properties":{"expression":{"type":"string","description":"The expression, e.g. \"2^10 / 3\"."}},` +
				`"required":["expression"],"additionalProperties":false}`),
		},
		Kind: KindBuiltin,
		Run: TextRun(func(_ context.Context, _ Env, raw json.RawMessage) (string, error) {
			var args struct {
				Expression string `json:"expression"`
			}
			if err := json.Unmarshal(nonEmpty(raw), &args); err != nil {
				return "", err
			}
			v, err := Eval(args.Expression)
			if err != nil {
				return "", err
			}
			return strconv.FormatFloat(v, 'g', 15, 64), nil
		}),
	}
}

func nonEmpty(raw json.RawMessage) json.RawMessage {
	if len(strings.TrimSpace(string(raw))) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}

// Eval evaluates an arithmetic expression (recursive descent; depth-limited,
// so hostile input cannot exhaust the stack).
func Eval(expr string) (float64, error) {
	if len(expr) > 4096 {
		return 0, txtExprTooLong.Error("n", len(expr))
	}
	p := &calc{src: expr}
	v, err := p.sum()
	if err == nil {
		p.space()
		if p.pos < len(p.src) {
			err = p.fail("unexpected %q", p.src[p.pos:])
		}
	}
	if err != nil {
		return 0, err
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, txtNotFinite.Error()
	}
	return v, nil
}

type calc struct {
	src   string
	pos   int
	depth int
}

func (p *calc) fail(format string, args ...any) error {
	return fmt.Errorf("cannot evaluate %q: %s at position %d", p.src, fmt.Sprintf(format, args...), p.pos+1)
}

func (p *calc) space() {
	for p.pos < len(p.src) && unicode.IsSpace(rune(p.src[p.pos])) {
		p.pos++
	}
}

func (p *calc) eat(c byte) bool {
	p.space()
	if p.pos < len(p.src) && p.src[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

func (p *calc) sum() (float64, error) {
	v, err := p.product()
	for err == nil {
		switch {
		case p.eat('+'):
			var r float64
			r, err = p.product()
			v += r
		case p.eat('-'):
			var r float64
			r, err = p.product()
			v -= r
		default:
			return v, nil
		}
	}
	return v, err
}

func (p *calc) product() (float64, error) {
	v, err := p.power()
	for err == nil {
		switch {
		case p.eat('*'):
			var r float64
			r, err = p.power()
			v *= r
		case p.eat('/'):
			var r float64
			r, err = p.power()
			v /= r
		case p.eat('%'):
			var r float64
			r, err = p.power()
			v = math.Mod(v, r)
		default:
			return v, nil
		}
	}
	return v, err
}

func (p *calc) power() (float64, error) {
	base, err := p.unary()
	if err != nil {
		return 0, err
	}
	if p.eat('^') {
		exp, err := p.power() // right-associative
		return math.Pow(base, exp), err
	}
	return base, nil
}

func (p *calc) unary() (float64, error) {
	if p.depth++; p.depth > 200 {
		return 0, p.fail("expression nested too deeply")
	}
	defer func() { p.depth-- }()
	if p.eat('-') {
		v, err := p.unary()
		return -v, err
	}
	if p.eat('+') {
		return p.unary()
	}
	return p.atom()
}

func (p *calc) atom() (float64, error) {
	p.space()
	if p.eat('(') {
		v, err := p.sum()
		if err == nil && !p.eat(')') {
			err = p.fail("missing )")
		}
		return v, err
	}
	start := p.pos
	for p.pos < len(p.src) && (p.src[p.pos] >= '0' && p.src[p.pos] <= '9' || p.src[p.pos] == '.' || p.src[p.pos] == '_' ||
		(p.pos > start && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') && p.pos+1 < len(p.src) && strings.ContainsRune("0123456789+-", rune(p.src[p.pos+1]))) ||
		(p.pos > start && (p.src[p.pos] == '+' || p.src[p.pos] == '-') && (p.src[p.pos-1] == 'e' || p.src[p.pos-1] == 'E'))) {
		p.pos++
	}
	if p.pos > start {
		v, err := strconv.ParseFloat(strings.ReplaceAll(p.src[start:p.pos], "_", ""), 64)
		if err != nil {
			p.pos = start
			return 0, p.fail("bad number %q", p.src[start:])
		}
		return v, nil
	}
	for p.pos < len(p.src) && (unicode.IsLetter(rune(p.src[p.pos])) || p.src[p.pos] >= '0' && p.src[p.pos] <= '9') {
		p.pos++
	}
	name := strings.ToLower(p.src[start:p.pos])
	switch name {
	case "":
		if p.pos >= len(p.src) {
			return 0, p.fail("expression ends too early")
		}
		return 0, p.fail("unexpected %q", p.src[p.pos:p.pos+1])
	case "pi":
		return math.Pi, nil
	case "e":
		return math.E, nil
	}
	fn, ok := calcFuncs[name]
	if !ok {
		p.pos = start
		return 0, p.fail("unknown name %q", name)
	}
	if !p.eat('(') {
		return 0, p.fail("%s needs parentheses, like %s(2)", name, name)
	}
	var args []float64
	for !p.eat(')') {
		if len(args) > 0 && !p.eat(',') {
			return 0, p.fail("expected , or ) in %s(…)", name)
		}
		v, err := p.sum()
		if err != nil {
			return 0, err
		}
		args = append(args, v)
	}
	return fn(p, name, args)
}

var calcFuncs = map[string]func(p *calc, name string, a []float64) (float64, error){}

func init() {
	one := map[string]func(float64) float64{
		"sqrt": math.Sqrt, "abs": math.Abs, "round": math.Round, "floor": math.Floor, "ceil": math.Ceil,
		"ln": math.Log, "log10": math.Log10, "sin": math.Sin, "cos": math.Cos, "tan": math.Tan,
	}
	for n, f := range one {
		calcFuncs[n] = func(p *calc, name string, a []float64) (float64, error) {
			if len(a) != 1 {
				return 0, p.fail("%s takes one argument, got %d", name, len(a))
			}
			return f(a[0]), nil
		}
	}
	many := map[string]func(float64, float64) float64{"min": math.Min, "max": math.Max}
	for n, f := range many {
		calcFuncs[n] = func(p *calc, name string, a []float64) (float64, error) {
			if len(a) == 0 {
				return 0, p.fail("%s needs at least one argument", name)
			}
			v := a[0]
			for _, x := range a[1:] {
				v = f(v, x)
			}
			return v, nil
		}
	}
}

// The built-in tools' refusals, coded for the UI's language (backend/uitext).
var (
	txtUnknownZone = uitext.Define("unknown_time_zone", "unknown time zone {{zone}}; use an IANA name such as \"Europe/Paris\"")
	txtExprTooLong = uitext.Define("expression_too_long", "expression too long ({{n}} characters; the limit is 4096)")
	txtNotFinite   = uitext.Define("not_finite", "the result is not a finite number (division by zero or out of range)")
)
