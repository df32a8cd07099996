// Package redact hides secrets in text that leaves the process or is kept:
// error messages, log lines, stored errors, exports. One helper for every
// path, so a URL is masked the same way wherever it is printed.
//
// What counts as a secret: the password of a URL's userinfo (or the whole
// userinfo when it is a bare token: https://ghp_x@host), the values of its
// query (services put keys there: ?api_key=, ?key=, ?token=, ?sig=…) except a
// few harmless names, key=value pairs in free text whose name says "key",
// "token", "secret", "password"…, and any value the caller knows (an API key
// a server echoed back).
package redact

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Mask replaces a secret.
const Mask = "•••"

// escapedMask is Mask as url.URL.String writes it in userinfo.
var escapedMask = url.PathEscape(Mask)

// publicParams are query parameters kept as they are: they say which API
// version or region is used and hold nothing secret.
var publicParams = map[string]bool{"api-version": true, "version": true, "region": true, "format": true}

// URL masks the secrets of one URL. A string that does not parse, or has no
// userinfo or query, is returned unchanged (after Text's key=value pass).
func URL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || raw == "" || (u.User == nil && u.RawQuery == "") {
		return pairs(raw)
	}
	if u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), Mask)
		} else {
			u.User = url.User(Mask)
		}
	}
	if u.RawQuery != "" {
		u.RawQuery = query(u.RawQuery)
	}
	s := u.String()
	return strings.ReplaceAll(s, escapedMask, Mask)
}

// query masks every value but the public ones, keeping the order.
func query(raw string) string {
	parts := strings.Split(raw, "&")
	for i, p := range parts {
		k, _, has := strings.Cut(p, "=")
		name, err := url.QueryUnescape(k)
		if err != nil {
			name = k
		}
		switch {
		case publicParams[strings.ToLower(name)]:
		case has:
			parts[i] = k + "=" + Mask
		}
	}
	return strings.Join(parts, "&")
}

// urlRe finds URLs in free text; they end at white space or a quote.
var urlRe = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]{1,15}://[^\s"'<>` + "`" + `]+`)

// pairRe finds name=value pairs (and "name": "value" in JSON) whose name
// says it holds a secret: api_key=, access_token=, "password": "…".
var pairRe = regexp.MustCompile(`(?i)\b([\w-]*?(?:key|token|secret|password|passwd|signature|sig|credential|authorization))(=|["']\s*:\s*["']?)([^\s"'&,;<>)}\]]{4,})`)

// bearerRe finds "Bearer <token>" as sent in Authorization headers.
var bearerRe = regexp.MustCompile(`(?i)\b(bearer\s+)([A-Za-z0-9._~+/=-]{4,})`)

func pairs(s string) string {
	s = maskGroup(pairRe, s, 3)
	return maskGroup(bearerRe, s, 2)
}

// maskGroup replaces submatch g of every match of re by Mask, leaving a
// value already masked and punctuation that ends a sentence.
func maskGroup(re *regexp.Regexp, s string, g int) string {
	ms := re.FindAllStringSubmatchIndex(s, -1)
	if ms == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		start, end := m[2*g], m[2*g+1]
		value := strings.TrimRight(s[start:end], ".:!?")
		if strings.HasPrefix(value, Mask) || value == "" {
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(Mask)
		last = start + len(value)
	}
	b.WriteString(s[last:])
	return b.String()
}

// Text masks every URL's secrets in free text, secret-looking name=value
// pairs, and each of the given known secrets (shorter than 4 characters
// are left alone: hiding "1" would garble the text and protect nothing).
func Text(s string, known ...string) string {
	if s == "" {
		return s
	}
	s = Known(s, known...)
	s = urlRe.ReplaceAllStringFunc(s, func(m string) string {
		// Punctuation that ends a sentence is not part of the URL.
		body := strings.TrimRight(m, ".,:;!?)]}")
		return URL(body) + m[len(body):]
	})
	return pairs(s)
}

// Known replaces each known secret in s by Mask, longest first so a secret
// that contains another is replaced whole.
func Known(s string, known ...string) string {
	if len(known) == 0 || s == "" {
		return s
	}
	list := make([]string, 0, len(known))
	for _, k := range known {
		if len(k) >= 4 {
			list = append(list, k)
		}
	}
	slices.SortFunc(list, func(a, b string) int { return len(b) - len(a) })
	for _, k := range slices.Compact(list) {
		s = strings.ReplaceAll(s, k, Mask)
		// The same value percent-encoded, as it appears in a URL.
		if e := url.QueryEscape(k); e != k {
			s = strings.ReplaceAll(s, e, Mask)
		}
	}
	return s
}

// Secrets lists what URL would hide in raw, to scrub from text that quotes
// it some other way (a server that echoes its request line).
func Secrets(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil || raw == "" {
		return nil
	}
	var out []string
	if u.User != nil {
		if p, has := u.User.Password(); has {
			out = append(out, p)
		} else {
			out = append(out, u.User.Username())
		}
	}
	for k, vs := range u.Query() {
		if publicParams[strings.ToLower(k)] {
			continue
		}
		out = append(out, vs...)
	}
	return out
}
