package nrssandbox

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/einvoice-ng/einvoice/model/nrs/codes"
)

// Resource names NRS publishes that model/nrs/codes does not ship.
const (
	ResourceServicesCodes = "services-codes"
	ResourceVATExemptions = "vat-exemptions"
)

// servicesCodes is a sample of the service codes (ISIC Rev. 4 classes) that
// invoice lines for services carry. NRS's list is longer.
var servicesCodes = []codes.Entry{
	{Code: "4330", Value: "Building completion and finishing"},
	{Code: "4923", Value: "Freight transport by road"},
	{Code: "5510", Value: "Short term accommodation activities"},
	{Code: "5610", Value: "Restaurants and mobile food service activities"},
	{Code: "6110", Value: "Wired telecommunications activities"},
	{Code: "6201", Value: "Computer programming activities"},
	{Code: "6202", Value: "Computer consultancy and computer facilities management activities"},
	{Code: "6419", Value: "Other monetary intermediation"},
	{Code: "6810", Value: "Real estate activities with own or leased property"},
	{Code: "6910", Value: "Legal activities"},
	{Code: "6920", Value: "Accounting, bookkeeping and auditing activities; tax consultancy"},
	{Code: "7110", Value: "Architectural and engineering activities and related technical consultancy"},
	{Code: "8010", Value: "Private security activities"},
	{Code: "8549", Value: "Other education n.e.c."},
	{Code: "8620", Value: "Medical and dental practice activities"},
}

// vatExemptions is a sample of the VAT exemption categories of the VAT
// Act's First Schedule. NRS's list goes down to tariff codes.
var vatExemptions = []codes.Entry{
	{Code: "BASIC_FOOD", Value: "Basic food items", Percent: "0"},
	{Code: "MEDICAL", Value: "Medical and pharmaceutical products", Percent: "0"},
	{Code: "EDUCATIONAL", Value: "Books and educational materials", Percent: "0"},
	{Code: "BABY_PRODUCTS", Value: "Baby products", Percent: "0"},
	{Code: "AGRICULTURE", Value: "Fertilisers, agricultural and veterinary medicine, farming machinery", Percent: "0"},
	{Code: "SANITARY", Value: "Locally manufactured sanitary towels, pads and tampons", Percent: "0"},
	{Code: "EXPORTED_SERVICES", Value: "Exported services", Percent: "0"},
}

// resource is GET /api/v1/invoice/resources/{name}. Like NRS's, it needs no
// credentials.
func (h *Handler) resource(w http.ResponseWriter, r *http.Request) error {
	name := chi.URLParam(r, "name")
	var list []codes.Entry
	switch name {
	case ResourceServicesCodes:
		list = servicesCodes
	case ResourceVATExemptions:
		list = vatExemptions
	case codes.ResourceInvoiceTypes, codes.ResourceTaxCategories, codes.ResourcePaymentMeans,
		codes.ResourceCurrencies, codes.ResourceCountries:
		l, _ := codes.Resource(name)
		list = l.Entries()
	default:
		return &apiError{status: http.StatusNotFound, public: "resource not found",
			details: "unknown resource " + quote(name)}
	}
	writeData(w, http.StatusOK, list)
	return nil
}
