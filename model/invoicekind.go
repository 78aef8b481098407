package model

import "strings"

// InvoiceKind is who buys: a business, a consumer or a government body. It
// is the one definition of the kind for every route, resolver, workflow and
// rendering; the NRS code list of invoice kinds and the render layouts use
// its values.
type InvoiceKind string

// Invoice kinds.
const (
	InvoiceKindB2B InvoiceKind = "B2B"
	InvoiceKindB2C InvoiceKind = "B2C"
	InvoiceKindB2G InvoiceKind = "B2G"
)

// AllInvoiceKinds lists every invoice kind in the interface document's order.
var AllInvoiceKinds = []InvoiceKind{InvoiceKindB2B, InvoiceKindB2C, InvoiceKindB2G}

// InvoiceKinds lists the invoice kinds as strings.
var InvoiceKinds = []string{string(InvoiceKindB2B), string(InvoiceKindB2C), string(InvoiceKindB2G)}

// ParseInvoiceKind reads an invoice kind with the one case rule of the API:
// surrounding white space is ignored and the letters are matched without
// regard to case ("b2b", "B2b" and " B2B" are all B2B). The result is the
// canonical upper-case kind, which is what is stored and answered. This
// rule never refuses a value the interface document lists, nor one that a
// route accepted before the rule was shared.
func ParseInvoiceKind(v string) (InvoiceKind, bool) {
	v = strings.TrimSpace(v)
	if len(v) != 3 {
		return "", false
	}
	for _, k := range AllInvoiceKinds {
		if strings.EqualFold(v, string(k)) {
			return k, true
		}
	}
	return "", false
}

// Transmitted reports whether invoices of this kind are transmitted to the
// buyer (B2B and B2G) rather than only reported (B2C).
func (k InvoiceKind) Transmitted() bool { return k == InvoiceKindB2B || k == InvoiceKindB2G }

// CheckInvoiceKind reads v with ParseInvoiceKind, recording enum at loc when
// it is not an invoice kind.
func (p *Problems) CheckInvoiceKind(v string, loc ...any) (InvoiceKind, bool) {
	k, ok := ParseInvoiceKind(v)
	if !ok {
		p.Add(ProblemEnum, "Input should be "+quoteList(InvoiceKinds)+" (any case)", loc...)
	}
	return k, ok
}
