// Package codes holds the code lists of the Nigerian e-invoicing platform
// (NRS, formerly FIRS), shipped offline so that validation never needs the
// network: invoice types (NRS numbering), tax categories, payment means,
// payment statuses, invoice kinds, ISO 4217 currencies, ISO 3166-1 alpha-2
// countries and ISO 3166-2:NG states.
//
// The lists mirror the resources NRS publishes under
// /api/v1/invoice/resources/{name}; refresh them from there during
// certification. Lists are immutable after package initialisation and safe
// for concurrent use.
package codes

import (
	"sort"

	"github.com/einvoice-ng/einvoice/model"
)

// Entry is one code of a list. Value is the human name; Percent is set only
// for tax categories that carry a fixed rate ("7.5" for STANDARD_VAT).
type Entry struct {
	Code    string `json:"code"`
	Value   string `json:"value"`
	Percent string `json:"percent,omitempty"`
}

// List is an immutable code list with constant-time lookup.
type List struct {
	name    string
	entries []Entry
	index   map[string]int
}

func newList(name string, entries []Entry) *List {
	l := &List{name: name, entries: entries, index: make(map[string]int, len(entries))}
	for i, e := range entries {
		if _, dup := l.index[e.Code]; dup {
			panic("codes: duplicate code " + e.Code + " in " + name)
		}
		l.index[e.Code] = i
	}
	return l
}

// Name is the list's resource name, as in NRS's resources endpoint
// ("invoice-types", "currencies").
func (l *List) Name() string { return l.name }

// Len returns the number of codes.
func (l *List) Len() int { return len(l.entries) }

// Contains reports whether code is in the list. Codes are case-sensitive.
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

// Entries returns a copy of the list, in its published order.
func (l *List) Entries() []Entry {
	return append([]Entry(nil), l.entries...)
}

// Codes returns the codes in published order.
func (l *List) Codes() []string {
	out := make([]string, len(l.entries))
	for i, e := range l.entries {
		out[i] = e.Code
	}
	return out
}

// Resource names of the lists, as NRS names them where it publishes them.
const (
	ResourceInvoiceTypes    = "invoice-types"
	ResourceTaxCategories   = "tax-categories"
	ResourcePaymentMeans    = "payment-means"
	ResourceCurrencies      = "currencies"
	ResourceCountries       = "countries"
	ResourceStates          = "states"
	ResourcePaymentStatuses = "payment-statuses"
	ResourceInvoiceKinds    = "invoice-kinds"
)

// Resource returns the list published under name.
func Resource(name string) (*List, bool) {
	l, ok := resources[name]
	return l, ok
}

// ResourceNames lists every resource name, sorted.
func ResourceNames() []string {
	out := make([]string, 0, len(resources))
	for n := range resources {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

var resources = map[string]*List{
	ResourceInvoiceTypes:    InvoiceTypes,
	ResourceTaxCategories:   TaxCategories,
	ResourcePaymentMeans:    PaymentMeans,
	ResourceCurrencies:      Currencies,
	ResourceCountries:       Countries,
	ResourceStates:          States,
	ResourcePaymentStatuses: PaymentStatuses,
	ResourceInvoiceKinds:    InvoiceKinds,
}

// Invoice type codes with special handling in the rules.
const (
	// InvoiceTypeCreditNote is NRS's credit note. NRS numbering differs from
	// UNTDID 1001, where 380 is the commercial invoice.
	InvoiceTypeCreditNote = "380"
	// InvoiceTypeCommercialInvoice is NRS's ordinary invoice.
	InvoiceTypeCommercialInvoice = "381"
	// InvoiceTypeDebitNote is the debit note.
	InvoiceTypeDebitNote = "384"
	// InvoiceTypeSelfBilledCreditNote is the self-billed credit note.
	InvoiceTypeSelfBilledCreditNote = "393"
)

// InvoiceTypes are the document type codes in NRS numbering.
var InvoiceTypes = newList(ResourceInvoiceTypes, []Entry{
	{Code: "380", Value: "Credit Note"},
	{Code: "381", Value: "Commercial Invoice"},
	{Code: "384", Value: "Debit Note"},
	{Code: "385", Value: "Self Billed Invoice"},
	{Code: "386", Value: "Factored Invoice"},
	{Code: "388", Value: "Statement of Account"},
	{Code: "389", Value: "Purchase Order"},
	{Code: "390", Value: "Proforma Invoice"},
	{Code: "392", Value: "Consignment Invoice"},
	{Code: "393", Value: "Self-billed Credit Note"},
	{Code: "394", Value: "Self-billed Invoice"},
	{Code: "395", Value: "Credit Note Request"},
	{Code: "396", Value: "Invoice Request"},
	{Code: "397", Value: "Final Settlement"},
	{Code: "399", Value: "Bill of Lading"},
	{Code: "400", Value: "Waybill"},
	{Code: "402", Value: "Shipping Instructions"},
	{Code: "404", Value: "Certificate of Origin"},
	{Code: "406", Value: "Customs Declaration"},
	{Code: "408", Value: "Packing List"},
})

// Invoice kinds: how the invoice is cleared or reported. They are
// model.InvoiceKind's values; read a caller's kind with
// model.ParseInvoiceKind.
const (
	KindB2B = string(model.InvoiceKindB2B)
	KindB2G = string(model.InvoiceKindB2G)
	KindB2C = string(model.InvoiceKindB2C)
)

// InvoiceKinds are the invoice kinds (schema 1.1 invoice_kind).
var InvoiceKinds = newList(ResourceInvoiceKinds, []Entry{
	{Code: KindB2B, Value: "Business to business"},
	{Code: KindB2G, Value: "Business to government"},
	{Code: KindB2C, Value: "Business to consumer"},
})

// PaymentStatuses are the payment statuses; PENDING is the default.
var PaymentStatuses = newList(ResourcePaymentStatuses, []Entry{
	{Code: "PENDING", Value: "Pending"},
	{Code: "PAID", Value: "Paid"},
	{Code: "PARTIAL", Value: "Partially paid"},
	{Code: "REJECTED", Value: "Rejected"},
})

// TaxCategories are the tax_category.id values. Percent is set where the
// category has one fixed rate.
var TaxCategories = newList(ResourceTaxCategories, []Entry{
	{Code: "STANDARD_VAT", Value: "Standard Value-Added Tax", Percent: "7.5"},
	{Code: "REDUCED_VAT", Value: "Reduced Value-Added Tax"},
	{Code: "ZERO_VAT", Value: "Zero Value-Added Tax", Percent: "0"},
	{Code: "EXEMPTED", Value: "Exempted", Percent: "0"},
	{Code: "STANDARD_GST", Value: "Standard Goods and Services Tax"},
	{Code: "REDUCED_GST", Value: "Reduced Goods and Services Tax"},
	{Code: "ZERO_GST", Value: "Zero Goods and Services Tax", Percent: "0"},
	{Code: "STATE_SALES_TAX", Value: "State Sales Tax"},
	{Code: "LOCAL_SALES_TAX", Value: "Local Sales Tax"},
	{Code: "ALCOHOL_EXCISE_TAX", Value: "Alcohol Excise Tax"},
	{Code: "TOBACCO_EXCISE_TAX", Value: "Tobacco Excise Tax"},
	{Code: "FUEL_EXCISE_TAX", Value: "Fuel Excise Tax"},
	{Code: "CORPORATE_INCOME_TAX", Value: "Corporate Income Tax"},
	{Code: "PERSONAL_INCOME_TAX", Value: "Personal Income Tax"},
	{Code: "SOCIAL_SECURITY_TAX", Value: "Social Security Tax"},
	{Code: "MEDICARE_TAX", Value: "Medicare Tax"},
	{Code: "REAL_ESTATE_TAX", Value: "Real Estate Tax"},
	{Code: "PERSONAL_PROPERTY_TAX", Value: "Personal Property Tax"},
	{Code: "CARBON_TAX", Value: "Carbon Tax"},
	{Code: "PLASTIC_TAX", Value: "Plastic Tax"},
	{Code: "IMPORT_DUTY", Value: "Import Duty"},
	{Code: "EXPORT_DUTY", Value: "Export Duty"},
	{Code: "LUXURY_TAX", Value: "Luxury Tax"},
	{Code: "SERVICE_TAX", Value: "Service Tax"},
	{Code: "TOURISM_TAX", Value: "Tourism Tax"},
	{Code: "WITHHOLDING_TAX", Value: "Withholding Tax"},
	{Code: "STAMP_DUTY", Value: "Stamp Duty"},
})

// PaymentMeans are the payment means codes (UNTDID 4461 basis).
var PaymentMeans = newList(ResourcePaymentMeans, []Entry{
	{Code: "10", Value: "Cash"},
	{Code: "20", Value: "Cheque"},
	{Code: "21", Value: "Banker's draft"},
	{Code: "30", Value: "Credit transfer"},
	{Code: "31", Value: "Debit transfer"},
	{Code: "42", Value: "Payment to bank account"},
	{Code: "48", Value: "Bank card"},
	{Code: "49", Value: "Direct debit"},
	{Code: "54", Value: "Credit card"},
	{Code: "97", Value: "Clearing between partners"},
})

// States are the ISO 3166-2:NG subdivisions: 36 states and the Federal
// Capital Territory.
var States = newList(ResourceStates, []Entry{
	{Code: "NG-AB", Value: "Abia"},
	{Code: "NG-AD", Value: "Adamawa"},
	{Code: "NG-AK", Value: "Akwa Ibom"},
	{Code: "NG-AN", Value: "Anambra"},
	{Code: "NG-BA", Value: "Bauchi"},
	{Code: "NG-BE", Value: "Benue"},
	{Code: "NG-BO", Value: "Borno"},
	{Code: "NG-BY", Value: "Bayelsa"},
	{Code: "NG-CR", Value: "Cross River"},
	{Code: "NG-DE", Value: "Delta"},
	{Code: "NG-EB", Value: "Ebonyi"},
	{Code: "NG-ED", Value: "Edo"},
	{Code: "NG-EK", Value: "Ekiti"},
	{Code: "NG-EN", Value: "Enugu"},
	{Code: "NG-FC", Value: "Federal Capital Territory"},
	{Code: "NG-GO", Value: "Gombe"},
	{Code: "NG-IM", Value: "Imo"},
	{Code: "NG-JI", Value: "Jigawa"},
	{Code: "NG-KD", Value: "Kaduna"},
	{Code: "NG-KE", Value: "Kebbi"},
	{Code: "NG-KN", Value: "Kano"},
	{Code: "NG-KO", Value: "Kogi"},
	{Code: "NG-KT", Value: "Katsina"},
	{Code: "NG-KW", Value: "Kwara"},
	{Code: "NG-LA", Value: "Lagos"},
	{Code: "NG-NA", Value: "Nasarawa"},
	{Code: "NG-NI", Value: "Niger"},
	{Code: "NG-OG", Value: "Ogun"},
	{Code: "NG-ON", Value: "Ondo"},
	{Code: "NG-OS", Value: "Osun"},
	{Code: "NG-OY", Value: "Oyo"},
	{Code: "NG-PL", Value: "Plateau"},
	{Code: "NG-RI", Value: "Rivers"},
	{Code: "NG-SO", Value: "Sokoto"},
	{Code: "NG-TA", Value: "Taraba"},
	{Code: "NG-YO", Value: "Yobe"},
	{Code: "NG-ZA", Value: "Zamfara"},
})
