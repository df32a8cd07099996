package paradigm

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"airlock/backend/tools/ojson"
)

// Python literals, as models write arguments in pythonic calls and values
// in the text formats: strings in any quotes (an unescaped quote of the
// same kind inside is kept when what follows it can't end the string),
// numbers, True/False/None, lists, tuples, dicts and sets (read as lists).
// Strings draw on the scan's budget, so hostile text costs linear time.

type pyParser struct {
	t      string
	i, hi  int
	depth  int
	budget *int // the scan's budget, drawn on by strings (nil: none)
}

// spend draws n from the budget; false when it has run out.
func (p *pyParser) spend(n int) bool {
	if p.budget == nil {
		return true
	}
	*p.budget -= n
	return *p.budget > 0
}

func (p *pyParser) ws() {
	for p.i < p.hi {
		switch p.t[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *pyParser) peek() byte {
	if p.i < p.hi {
		return p.t[p.i]
	}
	return 0
}

func (p *pyParser) name() string {
	k := p.i
	for p.i < p.hi && p.i-k < 128 && (isIdentByte(p.t[p.i]) || p.t[p.i] == '.' || p.t[p.i] == '-') {
		p.i++
	}
	return p.t[k:p.i]
}

func (p *pyParser) value() (any, bool) {
	if p.depth > 64 {
		return nil, false
	}
	p.depth++
	defer func() { p.depth-- }()
	p.ws()
	if p.i >= p.hi {
		return nil, false
	}
	c := p.t[p.i]
	switch {
	case c == '"' || c == '\'':
		return p.str()
	case c == 'b' && p.i+1 < p.hi && (p.t[p.i+1] == '"' || p.t[p.i+1] == '\''):
		return nil, false // bytes have no JSON form
	case (c == 'r' || c == 'u' || c == 'R') && p.i+1 < p.hi && (p.t[p.i+1] == '"' || p.t[p.i+1] == '\''):
		p.i++
		return p.str()
	case c == '[' || c == '(':
		closeB := byte(']')
		if c == '(' {
			closeB = ')'
		}
		p.i++
		arr := []any{}
		for {
			p.ws()
			if p.peek() == closeB {
				p.i++
				return arr, true
			}
			v, ok := p.value()
			if !ok {
				return nil, false
			}
			arr = append(arr, v)
			p.ws()
			switch p.peek() {
			case ',':
				p.i++
			case closeB:
			default:
				return nil, false
			}
		}
	case c == '{':
		p.i++
		obj := ojson.Object{}
		for {
			p.ws()
			if p.peek() == '}' {
				p.i++
				return obj, true
			}
			kv, ok := p.value()
			if !ok {
				return nil, false
			}
			if p.ws(); len(obj) == 0 && (p.peek() == ',' || p.peek() == '}') {
				return p.set(kv) // {'a', 'b'}: a set, read as a list
			}
			var key string
			switch k := kv.(type) {
			case string:
				key = k
			case json.Number:
				key = string(k)
			default:
				return nil, false
			}
			p.ws()
			if p.peek() != ':' {
				return nil, false
			}
			p.i++
			v, ok := p.value()
			if !ok {
				return nil, false
			}
			obj = append(obj, ojson.Member{Key: key, Value: v})
			p.ws()
			switch p.peek() {
			case ',':
				p.i++
			case '}':
			default:
				return nil, false
			}
		}
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		k := p.i
		p.i++
		for p.i < p.hi {
			d := p.t[p.i]
			if d >= '0' && d <= '9' || d == '.' || d == 'e' || d == 'E' || d == '_' || (d == '-' || d == '+') && (p.t[p.i-1] == 'e' || p.t[p.i-1] == 'E') {
				p.i++
				continue
			}
			break
		}
		lit := strings.ReplaceAll(strings.TrimPrefix(p.t[k:p.i], "+"), "_", "")
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil {
			return nil, false
		}
		if isJSONNumber(lit) {
			return json.Number(lit), true
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), true
	default:
		w := p.name()
		switch w {
		case "True", "true":
			return true, true
		case "False", "false":
			return false, true
		case "None", "null", "none":
			return nil, true
		}
		return nil, false
	}
}

// set reads the rest of a set literal whose first element is first.
func (p *pyParser) set(first any) (any, bool) {
	out := []any{first}
	for {
		p.ws()
		switch p.peek() {
		case '}':
			p.i++
			return out, true
		case ',':
			p.i++
			p.ws()
			if p.peek() == '}' {
				continue
			}
			v, ok := p.value()
			if !ok {
				return nil, false
			}
			out = append(out, v)
		default:
			return nil, false
		}
	}
}

// closesString says a quote followed by what follows it at k ends the
// string: a delimiter of the call, or the end.
func (p *pyParser) closesString(k int) bool {
	for k < p.hi && (p.t[k] == ' ' || p.t[k] == '\t') {
		k++
	}
	if k >= p.hi {
		return true
	}
	switch p.t[k] {
	case ',', ']', '}', ':', '\n', '\r':
		return true
	case ')':
		// The call's end, or several (print(f(x='a'))), then what may
		// follow a call.
		for k < p.hi && (p.t[k] == ')' || p.t[k] == ' ' || p.t[k] == '\t') {
			k++
		}
		return k >= p.hi || strings.IndexByte(",];\n\r<", p.t[k]) >= 0
	}
	return false
}

func isJSONNumber(s string) bool {
	var n json.Number
	return json.Unmarshal([]byte(s), &n) == nil
}

// str reads a Python string literal (”, "", ”' ”', """ """).
func (p *pyParser) str() (any, bool) {
	q := p.t[p.i]
	triple := p.i+3 <= p.hi && p.t[p.i+1] == q && p.t[p.i+2] == q
	if triple {
		p.i += 3
	} else {
		p.i++
	}
	var b strings.Builder
	start := p.i
	defer func() { p.spend(p.i - start) }()
	for p.i < p.hi {
		if (p.i-start)&1023 == 1023 && !p.spend(1024) {
			return nil, false
		}
		c := p.t[p.i]
		if c == '\\' && p.i+1 < p.hi {
			e := p.t[p.i+1]
			p.i += 2
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '0':
				b.WriteByte(0)
			case '\n':
			case 'u', 'x':
				n := 4
				if e == 'x' {
					n = 2
				}
				if p.i+n <= p.hi {
					if r, err := strconv.ParseUint(p.t[p.i:p.i+n], 16, 32); err == nil {
						b.WriteRune(rune(r))
						p.i += n
						continue
					}
				}
				b.WriteByte('\\')
				b.WriteByte(e)
			case '\\', '\'', '"':
				b.WriteByte(e)
			default:
				b.WriteByte('\\') // not an escape: Python keeps the backslash
				b.WriteByte(e)
			}
			continue
		}
		if c == q {
			if !triple {
				if p.closesString(p.i + 1) {
					p.i++
					return b.String(), true
				}
				// A quote of the same kind inside the string, unescaped:
				// sed -n '360,450p' written inside '…'.
				b.WriteByte(c)
				p.i++
				continue
			}
			if p.i+3 <= p.hi && p.t[p.i+1] == q && p.t[p.i+2] == q {
				p.i += 3
				return b.String(), true
			}
		}

		_, size := utf8.DecodeRuneInString(p.t[p.i:])
		b.WriteString(p.t[p.i : p.i+size])
		p.i += size
	}
	return nil, false
}
