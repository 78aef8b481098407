package apptest

import (
	"strings"
	"sync/atomic"

	"github.com/einvoice-ng/einvoice/model"
)

// BoundCase is one request of a conformance test built from the interface
// document's tables (model.Requests): a valid body with one field set to a
// boundary value, another value of its kind, or left out.
type BoundCase struct {
	// Name is "<field>/<variant>", such as "email/max+1".
	Name  string
	Field model.RequestField
	// Body is the JSON body to send.
	Body map[string]any
	// Absent is set when the case leaves Field out; Value is what was
	// sent otherwise (nil for an explicit null).
	Absent bool
	Value  any
	// Want is "" when the request must be accepted, else the 422 problem
	// type expected at Field.
	Want model.ProblemType
}

// Values makes the values of a conformance test; every call returns a value
// not returned before, so that bodies never collide on unique columns.
type Values struct {
	// Base returns a fresh valid body.
	Base func() map[string]any
	// Text returns a valid value of field with n characters; nil or a
	// nil result means a plain string of n characters (é, two bytes each,
	// so that lengths are seen to count characters, not bytes).
	Text func(field string, n int) (string, bool)
}

// BoundCases lists the conformance cases of req: for a length bound min-1,
// min, max and max+1 characters; for allowed values each value (an invoice
// kind also in lower case) and one that is not allowed; for a UUID one
// that is not; for an optional integer an integer and null; and every field
// left out, which is accepted when it is optional and missing when not.
func BoundCases(req model.Request, v Values) []BoundCase {
	var out []BoundCase
	add := func(f model.RequestField, variant string, value any, absent bool, want model.ProblemType) {
		body := v.Base()
		if absent {
			delete(body, f.Name)
		} else {
			body[f.Name] = value
		}
		out = append(out, BoundCase{Name: f.Name + "/" + variant, Field: f, Body: body, Absent: absent, Value: value, Want: want})
	}
	text := func(f model.RequestField, n int) string {
		if v.Text != nil {
			if s, ok := v.Text(f.Name, n); ok {
				return s
			}
		}
		return strings.Repeat("é", n)
	}
	for _, f := range req.Fields {
		if l := f.Length; l != nil {
			if l.Min > 0 {
				add(f, "min-1", text(f, l.Min-1), false, model.ProblemStringTooShort)
			}
			add(f, "min", text(f, l.Min), false, "")
			add(f, "max", text(f, l.Max), false, "")
			add(f, "max+1", text(f, l.Max+1), false, model.ProblemStringTooLong)
		}
		for _, e := range f.Enum {
			add(f, e, e, false, "")
			if _, kind := model.ParseInvoiceKind(e); kind {
				add(f, strings.ToLower(e), strings.ToLower(e), false, "")
			}
		}
		if f.Enum != nil {
			add(f, "not allowed", "B2X-staging", false, model.ProblemEnum)
		}
		switch f.Kind {
		case model.KindUUID:
			add(f, "not a UUID", "not-a-uuid", false, model.ProblemUUIDParsing)
		case model.KindIntegerOrNull:
			add(f, "integer", 1773568800, false, "")
			add(f, "null", nil, false, "")
			add(f, "string", "1773568800", false, model.ProblemIntType)
		}
		if f.Required {
			add(f, "absent", nil, true, model.ProblemMissing)
		} else {
			add(f, "absent", nil, true, "")
		}
	}
	return out
}

var (
	unique                    atomic.Int64
	emailCounter, slugCounter atomic.Int64
)

// Unique returns a number never returned before in this test binary.
func Unique() int64 { return unique.Add(1) }

// letters spells n in lower-case letters, least significant first.
func letters(n int64) string {
	var b []byte
	for {
		b = append(b, byte('a'+n%26))
		n /= 26
		if n == 0 {
			return string(b)
		}
	}
}

// Email returns a valid, unused e-mail address of n characters (n >= 3),
// or a string of n characters when n < 3.
func Email(n int) string {
	u := letters(emailCounter.Add(1))
	switch {
	case n < 3:
		return strings.Repeat("a", n)
	case n <= 66: // local@x, the local part starting with the unique letters
		local := n - len("@x")
		if len(u) > local { // "a@x" style: only as unique as one letter
			u = u[:local]
		}
		return u + strings.Repeat("a", local-len(u)) + "@x"
	}
	local := 64
	domainLen := n - local - 1
	var labels []string
	for domainLen > 0 {
		l := min(domainLen, 63)
		if domainLen-l == 1 { // a label may not be empty
			l--
		}
		labels = append(labels, strings.Repeat("d", l))
		domainLen -= l + 1
	}
	return u + strings.Repeat("a", local-len(u)) + "@" + strings.Join(labels, ".")
}

// Slug returns an unused slug of n characters; slugs of one character, or
// more than a few hundred of two, cannot all differ.
func Slug(n int) string {
	u := letters(slugCounter.Add(1))
	if len(u) > n {
		return u[:max(n, 0)]
	}
	return u + strings.Repeat("s", n-len(u))
}
