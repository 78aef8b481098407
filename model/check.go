package model

import (
	"fmt"
	"net/mail"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
)

// CheckLength records string_too_short / string_too_long when v's length in
// characters is outside [min, max]. It reports whether v passed.
func (p *Problems) CheckLength(v string, min, max int, loc ...any) bool {
	n := utf8.RuneCountInString(v)
	switch {
	case n < min:
		p.Add(ProblemStringTooShort, fmt.Sprintf("String should have at least %d character%s", min, plural(min)), loc...)
		return false
	case max > 0 && n > max:
		p.Add(ProblemStringTooLong, fmt.Sprintf("String should have at most %d character%s", max, plural(max)), loc...)
		return false
	}
	return true
}

// CheckPattern records string_pattern_mismatch when v does not match re.
func (p *Problems) CheckPattern(v string, re *regexp.Regexp, loc ...any) bool {
	if !re.MatchString(v) {
		p.Add(ProblemStringPatternMismatch, fmt.Sprintf("String should match pattern '%s'", re.String()), loc...)
		return false
	}
	return true
}

// CheckEnum records enum when v is not one of allowed.
func (p *Problems) CheckEnum(v string, allowed []string, loc ...any) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	p.Add(ProblemEnum, "Input should be "+quoteList(allowed), loc...)
	return false
}

// CheckUUID parses v as a UUID, recording uuid_parsing on failure.
func (p *Problems) CheckUUID(v string, loc ...any) uuid.UUID {
	id, err := ParseUUID(v)
	if err != nil {
		p.Add(ProblemUUIDParsing, "Input should be a valid UUID", loc...)
		return uuid.Nil
	}
	return id
}

// ParseUUID accepts only the canonical 36-character form (any case).
func ParseUUID(v string) (uuid.UUID, error) {
	if len(v) != 36 {
		return uuid.Nil, fmt.Errorf("invalid UUID length %d", len(v))
	}
	return uuid.Parse(v)
}

// CheckDate parses v as a real calendar date YYYY-MM-DD, recording
// date_from_datetime_parsing on failure.
func (p *Problems) CheckDate(v string, loc ...any) (time.Time, bool) {
	t, err := ParseDate(v)
	if err != nil {
		p.Add(ProblemDateFromDatetimeParse, "Input should be a valid date in the format YYYY-MM-DD", loc...)
		return time.Time{}, false
	}
	return t, true
}

// ParseDate parses a real calendar date in the form YYYY-MM-DD.
func ParseDate(v string) (time.Time, error) {
	if len(v) != 10 {
		return time.Time{}, fmt.Errorf("date %q is not YYYY-MM-DD", v)
	}
	return time.Parse(time.DateOnly, v)
}

// NormalizeEmail trims and lower-cases an e-mail address.
func NormalizeEmail(v string) string { return strings.ToLower(strings.TrimSpace(v)) }

// CheckEmail records value_error unless v looks like a bare e-mail address.
func (p *Problems) CheckEmail(v string, loc ...any) bool {
	if !ValidEmail(v) {
		p.Add(ProblemValueError, "value is not a valid email address", loc...)
		return false
	}
	return true
}

// ValidEmail reports whether v is a bare RFC 5322 address (no display name,
// no comment) of at most EmailLength.Max characters. The domain may be a
// single label ("a@b"), so that the shortest address the length bounds
// allow is accepted.
func ValidEmail(v string) bool {
	n := utf8.RuneCountInString(v)
	if n < EmailLength.Min || n > EmailLength.Max || strings.ContainsAny(v, " <>\t\r\n") {
		return false
	}
	if _, bad := FirstControl(v); bad {
		return false
	}
	a, err := mail.ParseAddress(v)
	if err != nil || a.Address != v || a.Name != "" {
		return false
	}
	at := strings.LastIndexByte(v, '@')
	domain := v[at+1:]
	return at > 0 && domain != "" && !strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".")
}

// CheckText checks a free-text value such as a name: its length in
// characters within l (string_too_short, string_too_long), and no control
// or bidirectional formatting character (value_error, see FirstControl).
// It reports whether v passed.
func (p *Problems) CheckText(v string, l Length, loc ...any) bool {
	if !p.CheckLength(v, l.Min, l.Max, loc...) {
		return false
	}
	return p.CheckNoControl(v, loc...)
}

// CheckNoControl records value_error when v holds a control or
// bidirectional formatting character (see FirstControl).
func (p *Problems) CheckNoControl(v string, loc ...any) bool {
	if r, bad := FirstControl(v); bad {
		p.Add(ProblemValueError, fmt.Sprintf("Value error, must not contain control or bidirectional formatting characters (found U+%04X)", r), loc...)
		return false
	}
	return true
}

// FirstControl returns the first character of v that has no place in a
// name: NUL and every other C0 control (U+0000-U+001F), DEL and the C1
// controls (U+007F-U+009F), the bidirectional embeddings, overrides and
// isolates (U+202A-U+202E, U+2066-U+2069), the directional marks (U+200E,
// U+200F, U+061C), and bytes that are not UTF-8 (reported as U+FFFD). Such
// characters make a name display as something else, and PostgreSQL cannot
// store NUL.
func FirstControl(v string) (rune, bool) {
	for i, r := range v {
		switch {
		case r == utf8.RuneError:
			if _, size := utf8.DecodeRuneInString(v[i:]); size <= 1 {
				return r, true
			}
		case r < 0x20, r >= 0x7F && r <= 0x9F,
			r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069,
			r == 0x200E, r == 0x200F, r == 0x061C:
			return r, true
		}
	}
	return 0, false
}

// CheckJSONNoNUL records value_error at the first string or object key of
// the decoded JSON value v that holds U+0000, which PostgreSQL can neither
// store as text nor in JSON; loc is v's location.
func (p *Problems) CheckJSONNoNUL(v any, loc ...any) bool {
	at, found := findNUL(v, append([]any(nil), loc...))
	if found {
		p.Add(ProblemValueError, "Value error, must not contain U+0000 (NUL)", at...)
	}
	return !found
}

func findNUL(v any, loc []any) ([]any, bool) {
	switch t := v.(type) {
	case string:
		return loc, strings.IndexByte(t, 0) >= 0
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys) // report the same key every time
		for _, k := range keys {
			if strings.IndexByte(k, 0) >= 0 {
				return append(loc, k), true
			}
			if at, ok := findNUL(t[k], append(loc, k)); ok {
				return at, true
			}
		}
	case []any:
		for i, e := range t {
			if at, ok := findNUL(e, append(loc, i)); ok {
				return at, true
			}
		}
	}
	return nil, false
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func quoteList(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = "'" + v + "'"
	}
	if len(q) <= 1 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
