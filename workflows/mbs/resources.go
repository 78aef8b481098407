package mbs

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
)

// Resource names NRS publishes under /api/v1/invoice/resources/{name}.
const (
	ResourceInvoiceTypes  = "invoice-types"
	ResourceTaxCategories = "tax-categories"
	ResourcePaymentMeans  = "payment-means"
	ResourceCurrencies    = "currencies"
	ResourceCountries     = "countries"
	ResourceServicesCodes = "services-codes"
	ResourceVATExemptions = "vat-exemptions"
)

// Resources lists every resource name, in the order a certification run
// fetches them.
var Resources = []string{
	ResourceInvoiceTypes, ResourceTaxCategories, ResourcePaymentMeans, ResourceCurrencies,
	ResourceCountries, ResourceServicesCodes, ResourceVATExemptions,
}

// ResourceEntry is one entry of a code list. NRS's lists differ in their
// field names, so Code and Name are read from the usual candidates ("code",
// "id", "alpha_2", ...; "value", "name", "description"); Data keeps the
// entry as sent.
type ResourceEntry struct {
	Code    string          `json:"code"`
	Name    string          `json:"name"`
	Percent string          `json:"percent,omitempty"`
	Data    json.RawMessage `json:"data"`
}

// Resource calls GET /api/v1/invoice/resources/{name} and returns the list.
// name must be one of Resources.
func (c *Client) Resource(ctx context.Context, name string) ([]ResourceEntry, Call, error) {
	path := "/api/v1/invoice/resources/" + pathSegment(name)
	if !slices.Contains(Resources, name) {
		return nil, Call{Operation: OpResource, Method: http.MethodGet, Path: path},
			fmt.Errorf("mbs: unknown resource %q", name)
	}
	r := request{op: OpResource, method: http.MethodGet, path: path}
	data, call, err := c.enveloped(ctx, r)
	if err != nil {
		return nil, call, err
	}
	items, ok := resourceItems(data)
	if !ok {
		return nil, call, c.malformed(r, call, "resource data is not a list")
	}
	out := make([]ResourceEntry, 0, len(items))
	for _, it := range items {
		f, _ := fields(it)
		out = append(out, ResourceEntry{
			Code:    f.str("code", "id", "alpha_2", "alpha2", "iso_code", "harmonized_system_code"),
			Name:    f.str("value", "name", "description", "label"),
			Percent: f.str("percent", "rate"),
			Data:    it,
		})
	}
	return out, call, nil
}

// resourceItems finds the list in a resource answer: the data itself, or a
// list under "items" or "data".
func resourceItems(data json.RawMessage) ([]json.RawMessage, bool) {
	var list []json.RawMessage
	if err := json.Unmarshal(data, &list); err == nil {
		return list, true
	}
	f, ok := fields(data)
	if !ok {
		return nil, false
	}
	for _, k := range []string{"items", "data"} {
		if err := json.Unmarshal(f[k], &list); err == nil && list != nil {
			return list, true
		}
	}
	return nil, false
}
