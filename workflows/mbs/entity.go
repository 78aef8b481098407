package mbs

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
)

// Entity is a taxpayer (one TIN) and its businesses. NRS does not publish
// the answer: the fields are those an applicant read off the sandbox
// (entity id, business id and name, TIN, IRN template); Data keeps it whole.
type Entity struct {
	ID         string
	Reference  string
	Name       string
	TIN        string
	Email      string
	Businesses []EntityBusiness
	Data       json.RawMessage
}

// EntityBusiness is one business of an entity.
type EntityBusiness struct {
	ID          string
	Name        string
	TIN         string
	ServiceID   string
	IRNTemplate string
}

// EntityQuery is SearchEntities' query: paging and a reference.
type EntityQuery struct {
	Paging
	Reference string
}

func readEntity(raw json.RawMessage) Entity {
	f, _ := fields(raw)
	e := Entity{ID: f.str("id", "entity_id"), Reference: f.str("reference"), Name: f.str("name"), TIN: f.str("tin"),
		Email: f.str("email"), Data: raw}
	if bs, ok := list(f.raw("businesses")); ok {
		for _, b := range bs {
			bf, _ := fields(b)
			e.Businesses = append(e.Businesses, EntityBusiness{ID: bf.str("id", "business_id"), Name: bf.str("name"),
				TIN: bf.str("tin"), ServiceID: bf.str("service_id"), IRNTemplate: bf.str("irn_template")})
		}
	}
	return e
}

// SearchEntities calls GET /api/v1/entity (SearchEntity).
func (c *Client) SearchEntities(ctx context.Context, in EntityQuery) (Page[Entity], Call, error) {
	q := url.Values{}
	in.set(q)
	if in.Reference != "" {
		q.Set("reference", in.Reference)
	}
	return page(ctx, c, request{op: OpSearchEntity, method: http.MethodGet, path: "/api/v1/entity", query: q.Encode()}, readEntity)
}

// GetEntity calls GET /api/v1/entity/{ENTITY_ID} (GetEntity). The id is a
// UUID: NRS answers anything else with HTTP 400, handler entity_actions,
// details "invalid UUID length: N".
func (c *Client) GetEntity(ctx context.Context, entityID string) (Entity, Call, error) {
	data, call, err := c.enveloped(ctx, request{op: OpGetEntity, method: http.MethodGet, path: "/api/v1/entity/" + pathSegment(entityID)})
	if err != nil {
		return Entity{}, call, err
	}
	return readEntity(data), call, nil
}
