package paradigm

import "strings"

// A parser reads one family of call syntax (one file each: hermes.go,
// qwen3coder.go, mistral.go, vcp.go, cline_xml.go, …). It declares what
// opens its calls; the walk (walk.go) calls read at each such opener, after
// the masks (mask.go) have had their say. Parsers share the scanner's
// helpers: lenient JSON (lenient.go), call objects (callobj.go), tags
// (tags.go), values that may contain their own closer (values.go).
type parser struct {
	families []Family
	openers  []opener
	// read reads the syntax opening at r.j and returns the end of what it
	// consumed, or -1 when the text there is not its business.
	read func(s *scanner, r readAt) int
	// payload, when set, reads this family's call inside a generic wrapper
	// tag (<tool_call>…</tool_call> and its relatives, wrappers.go) at k.
	payload func(s *scanner, w wrapper, k int) int
}

// opener is what can start a parser's syntax: a tag (by its normalised
// name, see tags.go), a literal prefix, or any occurrence of a byte.
type opener struct {
	tag    string
	prefix string // may begin before its trigger byte: "functools["
	any    byte   // '{', '[', '>': the parser looks at each one
	back   int    // bytes of prefix before the trigger byte
	parser *parser
}

// Family describes a call syntax a model family is trained to emit: for
// `airlockctl formats`, the Tool lab, and the Format of the calls found.
type Family struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Models  string   `json:"models"`
	Markers []string `json:"markers"`
	// Source: where the syntax is specified or tested in public.
	Source  string `json:"source"`
	Example string `json:"example"`
}

// parsers in order of precedence: at one position, the first that reads
// something wins. Specific markers come before the generic readers of bare
// JSON and pythonic lists.
var parsers = []*parser{
	vcpParser,
	wrapperParser,
	gemmaFamilies,
	hermesParser,
	qwen3CoderParser,
	invokeParser,
	dsmlParser,
	gigaChatFamily,
	glmParser,
	toolUseParser,
	deepseekParser,
	kimiParser,
	mistralParser,
	arrowCallParser,
	harmonyParser,
	graniteParser,
	phi4Parser,
	internLMParser,
	commandRParser,
	functionaryParser,
	lmStudioParser,
	miniMaxM3Parser,
	kimiK3Parser,
	solarParser,
	plamoParser,
	cwmParser,
	qwenAgentParser,
	jsonCallsParser,
	pythonicParser,
	clineParser,
}

// payloadReaders are the parsers that read inside generic wrapper tags, in
// the order they are tried.
var payloadReaders []*parser

// openers[c] lists the openers whose trigger byte is c, tags and prefixes
// first, then the generic byte readers, each in parser order.
var openers [256][]*opener

func init() {
	var generic [256][]*opener
	for _, p := range parsers {
		if p.payload != nil {
			payloadReaders = append(payloadReaders, p)
		}
		for i := range p.openers {
			o := &p.openers[i]
			o.parser = p
			switch {
			case o.tag != "":
				openers['<'] = append(openers['<'], o)
			case o.prefix != "":
				k := 0
				for k < len(o.prefix) && !trigger[o.prefix[k]] {
					k++
				}
				if k == len(o.prefix) {
					panic("paradigm: opener " + o.prefix + " has no trigger byte")
				}
				o.back = k
				c := o.prefix[k]
				openers[c] = append(openers[c], o)
			default:
				generic[o.any] = append(generic[o.any], o)
			}
		}
	}
	for c := range generic {
		openers[c] = append(openers[c], generic[c]...)
	}
}

// Formats lists the families the scanner recognises, the three paradigms'
// own first, each with its markers, an example and its public source.
func Formats() []Family {
	var out []Family
	for _, p := range parsers {
		out = append(out, p.families...)
	}
	rank := func(id string) int {
		switch id {
		case FormatJSON:
			return 0
		case FormatXML:
			return 1
		case FormatVCP:
			return 2
		}
		return 3
	}
	// A stable insertion sort: the paradigms first, the rest in parser order.
	for i := 1; i < len(out); i++ {
		for k := i; k > 0 && rank(out[k].ID) < rank(out[k-1].ID); k-- {
			out[k], out[k-1] = out[k-1], out[k]
		}
	}
	return out
}

// familySet is the set of families a scan reports.
type familySet struct {
	all bool
	ids map[string]bool
}

func (f familySet) has(id string) bool { return f.all || f.ids[id] }

func familiesFor(o Options) familySet {
	switch strings.ToLower(strings.TrimSpace(o.Paradigm)) {
	case "auto", "all":
		return familySet{all: true}
	}
	if o.RecognizeOthers {
		// Every syntax, the other paradigms' included: a chat switched from
		// JSON to XML still has JSON calls in its history to imitate.
		return familySet{all: true}
	}
	switch strings.ToLower(strings.TrimSpace(o.Paradigm)) {
	case "xml":
		return familySet{ids: map[string]bool{FormatXML: true, FormatHermes: true}}
	case "vcp":
		return familySet{ids: map[string]bool{FormatVCP: true}}
	}
	return familySet{ids: map[string]bool{FormatJSON: true}}
}
