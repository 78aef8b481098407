package graph

import (
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

// DefaultMaxValidationErrors is how many validation errors one answer
// carries; one more error says that the rest were left out.
const DefaultMaxValidationErrors = 10

// limitedRules returns gqlgen's validation rules (gqlparser's default set)
// with their errors capped: a validation keeps the first limit errors of
// all its rules together, then adds one saying that the rest were left out
// and drops the others before their messages are even formatted. Without
// the cap the overlapping-fields rule reports every conflicting pair of
// fields that share a response name, so a 7.6 KB document answered 82,668
// errors (22 MB). gqlgen asks for a fresh set for every document it
// validates, so each validation has its own count.
func limitedRules(limit int) func() *rules.Rules {
	return func() *rules.Rules {
		n := 0
		base := rules.NewDefaultRules()
		out := rules.NewRules()
		for name, rule := range base.GetInner() {
			out.AddRule(name, func(observers *core.Events, addError core.AddErrFunc) {
				rule(observers, func(options ...core.ErrorOption) {
					n++
					switch {
					case n <= limit:
						addError(options...)
					case n == limit+1:
						addError(core.Message("more than %d validation errors; the rest were left out", limit))
					}
				})
			})
		}
		return out
	}
}
