package model

import "strings"

// ProblemType is the closed set of validation problem types. The names reuse
// Pydantic v2's error types so that clients written against FastAPI services
// feel at home.
type ProblemType string

// The problem types.
const (
	ProblemMissing                ProblemType = "missing"
	ProblemStringTooShort         ProblemType = "string_too_short"
	ProblemStringTooLong          ProblemType = "string_too_long"
	ProblemStringType             ProblemType = "string_type"
	ProblemIntType                ProblemType = "int_type"
	ProblemBoolType               ProblemType = "bool_type"
	ProblemDictType               ProblemType = "dict_type"
	ProblemListType               ProblemType = "list_type"
	ProblemUUIDParsing            ProblemType = "uuid_parsing"
	ProblemEnum                   ProblemType = "enum"
	ProblemStringPatternMismatch  ProblemType = "string_pattern_mismatch"
	ProblemDateFromDatetimeParse  ProblemType = "date_from_datetime_parsing"
	ProblemJSONInvalid            ProblemType = "json_invalid"
	ProblemValueError             ProblemType = "value_error"
	ProblemExtraForbidden         ProblemType = "extra_forbidden"
	ProblemIdempotencyKeyMismatch ProblemType = "idempotency_key_reuse"
)

// ProblemTypes lists every ProblemType, for documentation and tests.
var ProblemTypes = []ProblemType{
	ProblemMissing, ProblemStringTooShort, ProblemStringTooLong, ProblemStringType,
	ProblemIntType, ProblemBoolType, ProblemDictType, ProblemListType, ProblemUUIDParsing,
	ProblemEnum, ProblemStringPatternMismatch, ProblemDateFromDatetimeParse,
	ProblemJSONInvalid, ProblemValueError, ProblemExtraForbidden, ProblemIdempotencyKeyMismatch,
}

// FieldError is one validation problem in the FastAPI shape. Loc starts with
// the part of the request ("body", "path", "query", "header") when it leaves a
// transport; services produce locations relative to their input and the
// transport prefixes them.
type FieldError struct {
	Loc  []any       `json:"loc"`
	Msg  string      `json:"msg"`
	Type ProblemType `json:"type"`
}

// Problems collects validation problems so that every one is reported at once.
// The zero value is ready to use.
type Problems struct {
	list []FieldError
}

// Add records a problem at loc (field names as strings, indexes as ints).
func (p *Problems) Add(typ ProblemType, msg string, loc ...any) {
	p.list = append(p.list, FieldError{Loc: append([]any(nil), loc...), Msg: msg, Type: typ})
}

// AddAll records already-built problems, prefixing their locations.
func (p *Problems) AddAll(prefix []any, fields []FieldError) {
	for _, f := range fields {
		loc := make([]any, 0, len(prefix)+len(f.Loc))
		loc = append(loc, prefix...)
		loc = append(loc, f.Loc...)
		p.list = append(p.list, FieldError{Loc: loc, Msg: f.Msg, Type: f.Type})
	}
}

// Has reports whether a problem was recorded at exactly loc or below it.
func (p *Problems) Has(loc ...any) bool {
	for _, f := range p.list {
		if len(f.Loc) < len(loc) {
			continue
		}
		match := true
		for i := range loc {
			if f.Loc[i] != loc[i] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// Len returns the number of problems recorded.
func (p *Problems) Len() int { return len(p.list) }

// List returns the problems recorded so far.
func (p *Problems) List() []FieldError { return p.list }

// Err returns nil when nothing was recorded, else an invalid *Error listing
// every problem.
func (p *Problems) Err() error {
	if len(p.list) == 0 {
		return nil
	}
	msgs := make([]string, 0, len(p.list))
	for _, f := range p.list {
		msgs = append(msgs, f.Msg)
	}
	return &Error{Code: CodeInvalid, Message: strings.Join(msgs, "; "), Fields: p.list}
}

// Invalid is a shortcut for a single-problem invalid error.
func Invalid(typ ProblemType, msg string, loc ...any) error {
	var p Problems
	p.Add(typ, msg, loc...)
	return p.Err()
}
