package mbs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
)

// Resource names NRS serves under /api/v1/invoice/resources/{name}.
const (
	ResourceCountries            = "countries"
	ResourceInvoiceTypes         = "invoice-types"
	ResourceCurrencies           = "currencies"
	ResourceVATExemptions        = "vat-exemptions"
	ResourceServicesCodes        = "services-codes"
	ResourceTaxCategories        = "tax-categories"
	ResourcePaymentMeans         = "payment-means"
	ResourceHSCodes              = "hs-codes"
	ResourceStates               = "states"
	ResourceLGAs                 = "lgas"
	ResourceInvoiceQuantityCodes = "invoice-quantity-codes"
)

// Resources lists every resource, in the order of mbs-api.md.
var Resources = []string{
	ResourceCountries, ResourceInvoiceTypes, ResourceCurrencies, ResourceVATExemptions, ResourceServicesCodes,
	ResourceTaxCategories, ResourcePaymentMeans, ResourceHSCodes, ResourceStates, ResourceLGAs,
	ResourceInvoiceQuantityCodes,
}

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

// ErrPartialList is Resource's error for a list its server says is partial:
// a code-list refresh must not take it for NRS's list.
var ErrPartialList = errors.New("mbs: the server holds only part of this list")

// Resource calls GET /api/v1/invoice/resources/{name} and returns the list
// as NRS sent it (the envelope's data), for code-list refreshes that keep
// NRS's own bytes. name is one of Resources (or another list NRS adds:
// lower-case letters, digits and hyphens). A list the server marks partial
// (PartialListHeader) is ErrPartialList.
func (c *Client) Resource(ctx context.Context, name string) (json.RawMessage, error) {
	data, call, err := c.ResourceCall(ctx, name)
	if err == nil && call.Partial {
		return nil, fmt.Errorf("%w: %s", ErrPartialList, name)
	}
	return data, err
}

// ResourceCall is Resource with the call's record; a partial list is
// returned, with Call.Partial set.
func (c *Client) ResourceCall(ctx context.Context, name string) (json.RawMessage, Call, error) {
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
func resourceList[T any](ctx context.Context, c *Client, name string) ([]T, Call, error) {
	data, call, err := c.ResourceCall(ctx, name)
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
func (c *Client) Countries(ctx context.Context) ([]Country, Call, error) {
	return resourceList[Country](ctx, c, ResourceCountries)
}

// InvoiceTypes fetches invoice-types.
func (c *Client) InvoiceTypes(ctx context.Context) ([]CodeValue, Call, error) {
	return resourceList[CodeValue](ctx, c, ResourceInvoiceTypes)
}

// Currencies fetches currencies.
func (c *Client) Currencies(ctx context.Context) ([]Currency, Call, error) {
	return resourceList[Currency](ctx, c, ResourceCurrencies)
}

// VATExemptions fetches vat-exemptions.
func (c *Client) VATExemptions(ctx context.Context) ([]VATExemption, Call, error) {
	return resourceList[VATExemption](ctx, c, ResourceVATExemptions)
}

// ServicesCodes fetches services-codes.
func (c *Client) ServicesCodes(ctx context.Context) ([]ServiceCode, Call, error) {
	return resourceList[ServiceCode](ctx, c, ResourceServicesCodes)
}

// TaxCategories fetches tax-categories.
func (c *Client) TaxCategories(ctx context.Context) ([]TaxCategory, Call, error) {
	return resourceList[TaxCategory](ctx, c, ResourceTaxCategories)
}

// PaymentMeans fetches payment-means.
func (c *Client) PaymentMeans(ctx context.Context) ([]CodeValue, Call, error) {
	return resourceList[CodeValue](ctx, c, ResourcePaymentMeans)
}

// HSCodes fetches hs-codes.
func (c *Client) HSCodes(ctx context.Context) ([]HSCode, Call, error) {
	return resourceList[HSCode](ctx, c, ResourceHSCodes)
}

// States fetches states.
func (c *Client) States(ctx context.Context) ([]State, Call, error) {
	return resourceList[State](ctx, c, ResourceStates)
}

// LGAs fetches lgas.
func (c *Client) LGAs(ctx context.Context) ([]LGA, Call, error) {
	return resourceList[LGA](ctx, c, ResourceLGAs)
}

// InvoiceQuantityCodes fetches invoice-quantity-codes.
func (c *Client) InvoiceQuantityCodes(ctx context.Context) ([]QuantityCode, Call, error) {
	return resourceList[QuantityCode](ctx, c, ResourceInvoiceQuantityCodes)
}
