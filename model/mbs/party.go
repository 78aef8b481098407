package mbs

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
)

// Address is a postal address as CreateParty takes it.
type Address struct {
	StreetName string `json:"street_name,omitempty"`
	CityName   string `json:"city_name,omitempty"`
	PostalZone string `json:"postal_zone,omitempty"`
	Country    string `json:"country,omitempty"`
}

// PartyRequest is the body of POST /api/v1/invoice/party (CreateParty).
// PartyName, TIN and Email are mandatory ("now mandatory"); Telephone starts
// with "+"; PostalAddressID (a stored address) or PostalAddress is required.
type PartyRequest struct {
	BusinessID          string   `json:"business_id"`
	PartyName           string   `json:"party_name"`
	TIN                 string   `json:"tin"`
	Email               string   `json:"email"`
	Telephone           string   `json:"telephone,omitempty"`
	BusinessDescription string   `json:"business_description,omitempty"`
	PostalAddressID     string   `json:"postal_address_id,omitempty"`
	PostalAddress       *Address `json:"postal_address,omitempty"`
}

// Party is a stored party: its id and its postal address's id (both UUIDs,
// which invoices may then name), with the fields sent. NRS does not publish
// the answer; Data keeps it whole.
type Party struct {
	ID                  string
	BusinessID          string
	PartyName           string
	TIN                 string
	Email               string
	Telephone           string
	BusinessDescription string
	PostalAddressID     string
	PostalAddress       Address
	Data                json.RawMessage
}

// PartyQuery is SearchParties' query: paging and a party name.
type PartyQuery struct {
	Paging
	PartyName string
}

func readParty(raw json.RawMessage) Party {
	f, _ := fields(raw)
	p := Party{ID: f.str("id", "party_id"), BusinessID: f.str("business_id"), PartyName: f.str("party_name"), TIN: f.str("tin"),
		Email: f.str("email"), Telephone: f.str("telephone"), BusinessDescription: f.str("business_description"),
		PostalAddressID: f.str("postal_address_id"), Data: raw}
	a, _ := fields(f.raw("postal_address"))
	p.PostalAddress = Address{StreetName: a.str("street_name"), CityName: a.str("city_name"), PostalZone: a.str("postal_zone"), Country: a.str("country")}
	if p.PostalAddressID == "" {
		p.PostalAddressID = a.str("id")
	}
	return p
}

// CreateParty calls POST /api/v1/invoice/party.
func (c *Client) CreateParty(ctx context.Context, in PartyRequest) (Party, Call, error) {
	r := request{op: OpCreateParty, method: http.MethodPost, path: "/api/v1/invoice/party"}
	b, err := encodeBody(in)
	if err != nil {
		return Party{}, Call{Operation: r.op, Method: r.method, Path: r.path}, err
	}
	r.body = b
	data, call, err := c.enveloped(ctx, r)
	if err != nil {
		return Party{}, call, err
	}
	return readParty(data), call, nil
}

// SearchParties calls GET /api/v1/invoice/party/{BUSINESS_ID} (SearchParty).
func (c *Client) SearchParties(ctx context.Context, businessID string, in PartyQuery) (Page[Party], Call, error) {
	q := url.Values{}
	in.set(q)
	if in.PartyName != "" {
		q.Set("party_name", in.PartyName)
	}
	return page(ctx, c, request{op: OpSearchParty, method: http.MethodGet, path: "/api/v1/invoice/party/" + pathSegment(businessID),
		query: q.Encode()}, readParty)
}
