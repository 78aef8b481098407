package model

import (
	"fmt"
	"net/mail"
	"regexp"
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

// ValidEmail reports whether v is a bare address (no display name) with a
// dotted domain, at most 254 characters.
func ValidEmail(v string) bool {
	if len(v) < 3 || len(v) > 254 || strings.ContainsAny(v, " <>\t\r\n") {
		return false
	}
	a, err := mail.ParseAddress(v)
	if err != nil || a.Address != v || a.Name != "" {
		return false
	}
	at := strings.LastIndexByte(v, '@')
	domain := v[at+1:]
	return at > 0 && strings.Contains(domain, ".") && !strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".")
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
