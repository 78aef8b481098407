package mbs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"

	"github.com/einvoice-ng/einvoice/model/nrs/codes"
)

// Entries of the lists, with NRS's field names and value types (as served;
// ../shared/nrs/reference).
type (
	// Country is an entry of countries.
	Country struct {
		Name                   string `json:"name"`
		Alpha2                 string `json:"alpha_2"`
		Alpha3                 string `json:"alpha_3"`
		CountryCode            string `json:"country_code"`
		ISO31662               string `json:"iso_3166_2"`
		Region                 string `json:"region"`
		SubRegion              string `json:"sub_region"`
		IntermediateRegion     string `json:"intermediate_region"`
		RegionCode             string `json:"region_code"`
		SubRegionCode          string `json:"sub_region_code"`
		IntermediateRegionCode string `json:"intermediate_region_code"`
	}
	// CodeValue is an entry of invoice-types and payment-means.
	CodeValue struct {
		Code  string `json:"code"`
		Value string `json:"value"`
	}
	// TaxCategory is an entry of tax-categories; Percent is a string ("7.5",
	// "0.0", "", "Not Available").
	TaxCategory struct {
		Code    string `json:"code"`
		Value   string `json:"value"`
		Percent string `json:"percent"`
	}
	// Currency is an entry of currencies.
	Currency struct {
		Symbol        string  `json:"symbol"`
		Name          string  `json:"name"`
		SymbolNative  string  `json:"symbol_native"`
		DecimalDigits int     `json:"decimal_digits"`
		Rounding      float64 `json:"rounding"`
		Code          string  `json:"code"`
		NamePlural    string  `json:"name_plural"`
	}
	// VATExemption is an entry of vat-exemptions: an exempt HS tariff line.
	VATExemption struct {
		HeadingNo            string `json:"heading_no"`
		HarmonizedSystemCode string `json:"harmonized_system_code"`
		TariffCategory       string `json:"tariff_category"`
		Tariff               string `json:"tariff"`
		Description          string `json:"description"`
	}
	// ServiceCode is an entry of services-codes (an ISIC class).
	ServiceCode struct {
		Description string `json:"description"`
		Code        string `json:"code"`
	}
	// HSCode is an entry of hs-codes.
	HSCode struct {
		HSCode      string `json:"hscode"`
		Description string `json:"description"`
	}
	// State is an entry of states.
	State struct {
		Name string `json:"name"`
		Code string `json:"code"`
	}
	// LGA is an entry of lgas.
	LGA struct {
		Name      string `json:"name"`
		Code      string `json:"code"`
		StateCode string `json:"state_code"`
	}
	// QuantityCode is an entry of invoice-quantity-codes. NRS's JSON field
	// names are not published: code, name and description are a guess from
	// the XML form an integrator reads.
	QuantityCode struct {
		Code        string `json:"code"`
		Name        string `json:"name"`
		Description string `json:"description"`
	}
)

var resourceName = regexp.MustCompile(`^[a-z][a-z0-9-]{0,63}$`)

// PartialListHeader marks an answer of the NRS sandbox stand-in that holds
// only part of NRS's list (hs-codes and invoice-quantity-codes, which have
// no public copy): "partial".
const PartialListHeader = "X-Einvoice-Sandbox-List"

// ResourceLists reads the code lists NRS serves under
// /api/v1/invoice/resources/{name} (Client.Resources).
type ResourceLists struct{ c *Client }

// Resources returns the reader of NRS's code lists.
func (c *Client) Resources() ResourceLists { return ResourceLists{c} }

// ErrPartialList is List's error for a list its server says is partial:
// a code-list refresh must not take it for NRS's list.
var ErrPartialList = errors.New("mbs: the server holds only part of this list")

// List calls GET /api/v1/invoice/resources/{name} and returns the list
// as NRS sent it (the envelope's data), for code-list refreshes that keep
// NRS's own bytes. name is one of codes.ResourceNames() (or another list NRS adds:
// lower-case letters, digits and hyphens). A list the server marks partial
// (PartialListHeader) is ErrPartialList.
func (r ResourceLists) List(ctx context.Context, name string) (json.RawMessage, error) {
	data, call, err := r.ListCall(ctx, name)
	if err == nil && call.Partial {
		return nil, fmt.Errorf("%w: %s", ErrPartialList, name)
	}
	return data, err
}

// ListCall is List with the call's record; a partial list is
// returned, with Call.Partial set.
func (rl ResourceLists) ListCall(ctx context.Context, name string) (json.RawMessage, Call, error) {
	c := rl.c
	path := "/api/v1/invoice/resources/" + pathSegment(name)
	r := request{op: OpResource, method: http.MethodGet, path: path}
	if !resourceName.MatchString(name) {
		return nil, Call{Operation: OpResource, Method: http.MethodGet, Path: path}, fmt.Errorf("mbs: %q is not a resource name", name)
	}
	data, call, err := c.enveloped(ctx, r)
	if err != nil {
		return nil, call, err
	}
	if _, ok := list(data); !ok {
		return nil, call, c.malformed(r, call, "resource data is not a list")
	}
	return data, call, nil
}

// resourceList fetches a list and decodes its entries.
func resourceList[T any](ctx context.Context, rl ResourceLists, name string) ([]T, Call, error) {
	c := rl.c
	data, call, err := rl.ListCall(ctx, name)
	if err != nil {
		return nil, call, err
	}
	var out []T
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, call, c.malformed(request{op: OpResource, method: http.MethodGet, path: call.Path}, call,
			name+" entries do not have NRS's fields: "+err.Error())
	}
	return out, call, nil
}

// Countries fetches countries.
func (rl ResourceLists) Countries(ctx context.Context) ([]Country, Call, error) {
	return resourceList[Country](ctx, rl, codes.ResourceCountries)
}

// InvoiceTypes fetches invoice-types.
func (rl ResourceLists) InvoiceTypes(ctx context.Context) ([]CodeValue, Call, error) {
	return resourceList[CodeValue](ctx, rl, codes.ResourceInvoiceTypes)
}

// Currencies fetches currencies.
func (rl ResourceLists) Currencies(ctx context.Context) ([]Currency, Call, error) {
	return resourceList[Currency](ctx, rl, codes.ResourceCurrencies)
}

// VATExemptions fetches vat-exemptions.
func (rl ResourceLists) VATExemptions(ctx context.Context) ([]VATExemption, Call, error) {
	return resourceList[VATExemption](ctx, rl, codes.ResourceVATExemptions)
}

// ServicesCodes fetches services-codes.
func (rl ResourceLists) ServicesCodes(ctx context.Context) ([]ServiceCode, Call, error) {
	return resourceList[ServiceCode](ctx, rl, codes.ResourceServicesCodes)
}

// TaxCategories fetches tax-categories.
func (rl ResourceLists) TaxCategories(ctx context.Context) ([]TaxCategory, Call, error) {
	return resourceList[TaxCategory](ctx, rl, codes.ResourceTaxCategories)
}

// PaymentMeans fetches payment-means.
func (rl ResourceLists) PaymentMeans(ctx context.Context) ([]CodeValue, Call, error) {
	return resourceList[CodeValue](ctx, rl, codes.ResourcePaymentMeans)
}

// HSCodes fetches hs-codes.
func (rl ResourceLists) HSCodes(ctx context.Context) ([]HSCode, Call, error) {
	return resourceList[HSCode](ctx, rl, codes.ResourceHSCodes)
}

// States fetches states.
func (rl ResourceLists) States(ctx context.Context) ([]State, Call, error) {
	return resourceList[State](ctx, rl, codes.ResourceStates)
}

// LGAs fetches lgas.
func (rl ResourceLists) LGAs(ctx context.Context) ([]LGA, Call, error) {
	return resourceList[LGA](ctx, rl, codes.ResourceLGAs)
}

// InvoiceQuantityCodes fetches invoice-quantity-codes.
func (rl ResourceLists) InvoiceQuantityCodes(ctx context.Context) ([]QuantityCode, Call, error) {
	return resourceList[QuantityCode](ctx, rl, codes.ResourceQuantityCodes)
}
