// Package codes holds the code lists of the Nigerian e-invoicing platform
// (NRS, formerly FIRS): the resources NRS serves under
// /api/v1/invoice/resources/{name} (invoice types, payment means, tax
// categories, currencies, countries, states, LGAs, services codes, VAT
// exemptions, and, once refreshed from NRS, HS codes and invoice quantity
// codes), plus the two value sets NRS documents without a resource (invoice
// kinds and payment statuses).
//
// The package ships an offline snapshot of NRS's lists, byte for byte as NRS
// serves their data arrays (reference/*.json, sources in
// reference/SOURCES.md). Lists fetched from NRS later are compiled with
// Compile into a Lists value that replaces the snapshot list by list.
// Everything here is immutable once built and safe for concurrent use.
package codes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/einvoice-ng/einvoice/model"
)

// Entry is one code of a list. Value is the entry's human name (NRS's
// "value", "name" or "description", whichever the list has); Percent is the
// tax categories' "percent" as NRS serves it ("7.5", "0.0", "Not
// Available", ""); State is the LGAs' "state_code".
type Entry struct {
	Code    string `json:"code"`
	Value   string `json:"value"`
	Percent string `json:"percent,omitempty"`
	State   string `json:"state_code,omitempty"`
}

// List is an immutable code list with constant-time lookup. Codes are
// case-sensitive and compared exactly as served, except that surrounding
// spaces are dropped (NRS's VAT exemption list has codes like "8708.3900 ").
type List struct {
	name    string
	entries []Entry
	index   map[string]int
}

// newList indexes entries; where a code repeats (NRS's VAT exemptions list
// does), the first entry wins.
func newList(name string, entries []Entry) *List {
	l := &List{name: name, entries: entries, index: make(map[string]int, len(entries))}
	for i, e := range entries {
		if _, dup := l.index[e.Code]; !dup {
			l.index[e.Code] = i
		}
	}
	return l
}

// Name is the list's resource name, as NRS names it ("invoice-types").
func (l *List) Name() string { return l.name }

// Len returns the number of entries, repeated codes included.
func (l *List) Len() int { return len(l.entries) }

// Contains reports whether code is in the list.
func (l *List) Contains(code string) bool {
	_, ok := l.index[code]
	return ok
}

// Lookup returns the entry of code.
func (l *List) Lookup(code string) (Entry, bool) {
	i, ok := l.index[code]
	if !ok {
		return Entry{}, false
	}
	return l.entries[i], true
}

// Entries returns a copy of the list, in its served order.
func (l *List) Entries() []Entry {
	return append([]Entry(nil), l.entries...)
}

// Codes returns the codes in served order.
func (l *List) Codes() []string {
	out := make([]string, len(l.entries))
	for i, e := range l.entries {
		out[i] = e.Code
	}
	return out
}

// Resource names, as in NRS's /api/v1/invoice/resources/{name}.
const (
	ResourceInvoiceTypes  = "invoice-types"
	ResourcePaymentMeans  = "payment-means"
	ResourceTaxCategories = "tax-categories"
	ResourceCurrencies    = "currencies"
	ResourceCountries     = "countries"
	ResourceStates        = "states"
	ResourceLGAs          = "lgas"
	ResourceServicesCodes = "services-codes"
	ResourceVATExemptions = "vat-exemptions"
	ResourceHSCodes       = "hs-codes"
	ResourceQuantityCodes = "invoice-quantity-codes"
	resourceInvoiceKinds  = "invoice-kinds"
	resourcePaymentStatus = "payment-statuses"
)

// fields says where one list keeps its code, name and extras. NRS's lists
// differ in their field names; these are the names NRS serves (SOURCES.md).
type fields struct {
	code, value, percent, state string
	// optional lists are not in the snapshot: until refreshed from NRS,
	// validation checks their codes by shape only.
	optional bool
}

var resourceFields = map[string]fields{
	ResourceInvoiceTypes:  {code: "code", value: "value"},
	ResourcePaymentMeans:  {code: "code", value: "value"},
	ResourceTaxCategories: {code: "code", value: "value", percent: "percent"},
	ResourceCurrencies:    {code: "code", value: "name"},
	ResourceCountries:     {code: "alpha_2", value: "name"},
	ResourceStates:        {code: "code", value: "name"},
	ResourceLGAs:          {code: "code", value: "name", state: "state_code"},
	ResourceServicesCodes: {code: "code", value: "description"},
	ResourceVATExemptions: {code: "harmonized_system_code", value: "tariff"},
	ResourceHSCodes:       {code: "hscode", value: "description", optional: true},
	// The JSON field names of invoice-quantity-codes are not published;
	// "code" and "name" are what its XML form (Code, Name) suggests.
	ResourceQuantityCodes: {code: "code", value: "name", optional: true},
}

// ResourceNames lists NRS's resources, in the order a refresh fetches them.
func ResourceNames() []string {
	return []string{
		ResourceInvoiceTypes, ResourcePaymentMeans, ResourceTaxCategories, ResourceCurrencies,
		ResourceCountries, ResourceStates, ResourceLGAs, ResourceServicesCodes, ResourceVATExemptions,
		ResourceHSCodes, ResourceQuantityCodes,
	}
}

// KnownResource reports whether name is one of NRS's resources.
func KnownResource(name string) bool {
	_, ok := resourceFields[name]
	return ok
}

// Parse reads one list as NRS serves it: the "data" array of the resource
// answer (or the whole {"code":200,"data":[...]} answer). Every entry must be
// an object with a non-empty code (a string, or a number written as one);
// other fields are read when present and of the expected type.
func Parse(name string, data []byte) (*List, error) {
	f, ok := resourceFields[name]
	if !ok {
		return nil, fmt.Errorf("codes: unknown resource %q", name)
	}
	items, err := dataArray(data)
	if err != nil {
		return nil, fmt.Errorf("codes: %s: %w", name, err)
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("codes: %s: the list is empty", name)
	}
	entries := make([]Entry, 0, len(items))
	for i, raw := range items {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
			return nil, fmt.Errorf("codes: %s: entry %d is not an object", name, i)
		}
		code := strings.TrimSpace(scalar(obj[f.code]))
		if code == "" {
			return nil, fmt.Errorf("codes: %s: entry %d has no %s", name, i, f.code)
		}
		e := Entry{Code: code, Value: strings.TrimSpace(scalar(obj[f.value]))}
		if f.percent != "" {
			e.Percent = strings.TrimSpace(scalar(obj[f.percent]))
		}
		if f.state != "" {
			e.State = strings.TrimSpace(scalar(obj[f.state]))
		}
		entries = append(entries, e)
	}
	return newList(name, entries), nil
}

// dataArray finds the list: the array itself, or the "data" of an answer.
func dataArray(data []byte) ([]json.RawMessage, error) {
	data = bytes.TrimSpace(data)
	var items []json.RawMessage
	if len(data) > 0 && data[0] == '{' {
		var env struct {
			Data []json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(data, &env); err != nil {
			return nil, fmt.Errorf("not a resource answer: %w", err)
		}
		return env.Data, nil
	}
	if err := json.Unmarshal(data, &items); err != nil {
		return nil, fmt.Errorf("not a JSON array: %w", err)
	}
	return items, nil
}

// scalar returns a JSON string's value, or a number's text.
func scalar(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		return n.String()
	}
	return ""
}

// Invoice type codes with special handling in the rules. NRS numbering
// differs from UNTDID 1001, where 380 is the commercial invoice.
const (
	InvoiceTypeCreditNote           = "380"
	InvoiceTypeCommercialInvoice    = "381"
	InvoiceTypeDebitNote            = "384"
	InvoiceTypeSelfBilledCreditNote = "393"
)

// Invoice kinds: how the invoice is cleared or reported. They are
// model.InvoiceKind's values; read a caller's kind with
// model.ParseInvoiceKind.
const (
	KindB2B = string(model.InvoiceKindB2B)
	KindB2G = string(model.InvoiceKindB2G)
	KindB2C = string(model.InvoiceKindB2C)
)

// InvoiceKinds are the values of invoice_kind NRS's documentation and
// approved providers show ("B2B, B2C, etc." in NRS's own words).
var InvoiceKinds = newList(resourceInvoiceKinds, []Entry{
	{Code: KindB2B, Value: "Business to business"},
	{Code: KindB2G, Value: "Business to government"},
	{Code: KindB2C, Value: "Business to consumer"},
})

// Payment statuses. PENDING is the default; CANCELED is FIRS's spelling
// (one L); PARTIAL exists since April 2026.
const (
	PaymentPending  = "PENDING"
	PaymentPaid     = "PAID"
	PaymentCanceled = "CANCELED"
	PaymentPartial  = "PARTIAL"
	// PaymentRejected appears only in approved providers' documents, never
	// in NRS's: validation accepts it with a warning.
	PaymentRejected = "REJECTED"
)

// PaymentStatuses are the payment statuses einvoice accepts: the four NRS
// documents, and REJECTED, which only providers show (see
// NRSPaymentStatus).
var PaymentStatuses = newList(resourcePaymentStatus, []Entry{
	{Code: PaymentPending, Value: "Pending"},
	{Code: PaymentPaid, Value: "Paid"},
	{Code: PaymentCanceled, Value: "Canceled"},
	{Code: PaymentPartial, Value: "Partially paid"},
	{Code: PaymentRejected, Value: "Rejected"},
})

// NRSPaymentStatus reports whether status is one NRS itself documents.
func NRSPaymentStatus(status string) bool {
	return status != PaymentRejected && PaymentStatuses.Contains(status)
}
