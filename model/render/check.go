package render

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/einvoice-ng/einvoice/model"
)

// CheckPayload records a problem wherever the payload's JSON types make it
// unusable for rendering: the payload is not an object, or a field the
// document is drawn from holds another type than the object, array, number
// or boolean it must be. Locations start with "payload". Absent fields and
// nulls are fine (they are drawn as empty), and so is every business-rule
// failure: validation reports those and the document renders, flagged.
func CheckPayload(p *model.Problems, payload any) {
	m, ok := payload.(map[string]any)
	if !ok {
		p.Add(model.ProblemDictType, "Input should be a valid dictionary or object", "payload")
		return
	}
	walk(p, m, invoiceShape, []any{"payload"})
}

// kind is the JSON type a field must have.
type kind int

const (
	kObject kind = iota
	kArray
	kNumber
	kBool
)

// field is one checked field: its kind and, for objects and arrays of
// objects, the shape of the object.
type field struct {
	kind  kind
	shape shape // objects, and array elements (always objects here)
}

type shape map[string]field

var (
	numeric = field{kind: kNumber}
	boolean = field{kind: kBool}
)

func object(s shape) field { return field{kind: kObject, shape: s} }
func array(s shape) field  { return field{kind: kArray, shape: s} }

var (
	addressShape = shape{}
	partyShape   = shape{"postal_address": object(addressShape)}
	docRefShape  = shape{}

	invoiceShape = shape{
		"invoice_delivery_period":       object(shape{}),
		"billing_reference":             array(docRefShape),
		"dispatch_document_reference":   object(docRefShape),
		"receipt_document_reference":    object(docRefShape),
		"originator_document_reference": object(docRefShape),
		"contract_document_reference":   object(docRefShape),
		"additional_document_reference": array(docRefShape),
		"accounting_supplier_party":     object(partyShape),
		"accounting_customer_party":     object(partyShape),
		"payee_party":                   object(partyShape),
		"tax_representative_party":      object(partyShape),
		"payment_means":                 array(shape{}),
		"allowance_charge":              array(shape{"charge_indicator": boolean, "amount": numeric}),
		"tax_total": array(shape{
			"tax_amount": numeric,
			"tax_subtotal": array(shape{
				"taxable_amount": numeric,
				"tax_amount":     numeric,
				"tax_category":   object(shape{"percent": numeric}),
			}),
		}),
		"legal_monetary_total": object(shape{
			"line_extension_amount": numeric,
			"tax_exclusive_amount":  numeric,
			"tax_inclusive_amount":  numeric,
			"payable_amount":        numeric,
		}),
		"invoice_line": array(shape{
			"invoiced_quantity":     numeric,
			"line_extension_amount": numeric,
			"discount_rate":         numeric,
			"discount_amount":       numeric,
			"fee_rate":              numeric,
			"fee_amount":            numeric,
			"item":                  object(shape{}),
			"price": object(shape{
				"price_amount":  numeric,
				"base_quantity": numeric,
			}),
		}),
	}
)

// walk checks the fields of one object against its shape, in a fixed
// order so that problems come out the same way every time.
func walk(p *model.Problems, m map[string]any, s shape, loc []any) {
	for _, name := range sortedKeys(s) {
		v, ok := m[name]
		if !ok || v == nil {
			continue
		}
		check(p, v, s[name], appendLoc(loc, name))
	}
}

func check(p *model.Problems, v any, f field, loc []any) {
	switch f.kind {
	case kObject:
		o, ok := v.(map[string]any)
		if !ok {
			p.Add(model.ProblemDictType, "Input should be a valid dictionary or object", loc...)
			return
		}
		walk(p, o, f.shape, loc)
	case kArray:
		a, ok := v.([]any)
		if !ok {
			p.Add(model.ProblemListType, "Input should be a valid list", loc...)
			return
		}
		for i, el := range a {
			if el == nil {
				continue
			}
			check(p, el, object(f.shape), appendLoc(loc, i))
		}
	case kNumber:
		if !isNumber(v) {
			p.Add(model.ProblemValueError, "Input should be a valid number", loc...)
		}
	case kBool:
		if _, ok := v.(bool); !ok {
			p.Add(model.ProblemBoolType, "Input should be a valid boolean", loc...)
		}
	}
}

// isNumber reports whether v is a JSON number as the decoders produce them.
func isNumber(v any) bool {
	switch v.(type) {
	case json.Number, float64, float32, int, int64, int32, uint64:
		return true
	}
	return false
}

func appendLoc(loc []any, el any) []any {
	out := make([]any, len(loc), len(loc)+1)
	copy(out, loc)
	return append(out, el)
}

func sortedKeys(s shape) []string { return slices.Sorted(maps.Keys(s)) }
