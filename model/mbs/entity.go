package mbs

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
)

// Entity is a taxpayer (one TIN) and its businesses. NRS publishes only the
// error answer: the fields are those integrators read (integrator-evidence.md
// E4: id, reference, app_reference, is_active, businesses[] with tin,
// sector, irn_template, is_realtime_reporting, support_peppol, ...) and the
// ones an applicant read off the sandbox (name, tin, email); Data keeps it
// whole.
type Entity struct {
	ID           string
	Reference    string
	AppReference string
	IsActive     bool
	Name         string
	TIN          string
	Email        string
	CreatedAt    string
	UpdatedAt    string
	Businesses   []EntityBusiness
	Data         json.RawMessage
}

// EntityBusiness is one business of an entity.
type EntityBusiness struct {
	ID                  string
	Reference           string
	Name                string
	TIN                 string
	Sector              string
	AnnualTurnover      string
	ServiceID           string
	IRNTemplate         string
	SupportPeppol       bool
	IsRealtimeReporting bool
	ERPSystem           string
	IsActive            bool
}

// Business returns the entity's business integrators pick, the one whose id
// equals the entity's reference, else the only or first one.
func (e Entity) Business() (EntityBusiness, bool) {
	for _, b := range e.Businesses {
		if e.Reference != "" && b.ID == e.Reference {
			return b, true
		}
	}
	if len(e.Businesses) > 0 {
		return e.Businesses[0], true
	}
	return EntityBusiness{}, false
}

// EntityQuery is SearchEntities' query: paging and a reference.
type EntityQuery struct {
	Paging
	Reference string
}

func readEntity(raw json.RawMessage) Entity {
	f, _ := fields(raw)
	e := Entity{ID: f.str("id", "entity_id"), Reference: f.str("reference"), AppReference: f.str("app_reference"),
		IsActive: f.bool("is_active"), Name: f.str("name"), TIN: f.str("tin"), Email: f.str("email"),
		CreatedAt: f.str("created_at"), UpdatedAt: f.str("updated_at"), Data: raw}
	if bs, ok := list(f.raw("businesses")); ok {
		for _, b := range bs {
			bf, _ := fields(b)
			e.Businesses = append(e.Businesses, EntityBusiness{ID: bf.str("id", "business_id"), Reference: bf.str("reference"),
				Name: bf.str("name"), TIN: bf.str("tin"), Sector: bf.str("sector"), AnnualTurnover: bf.str("annual_turnover"),
				ServiceID: bf.str("service_id"), IRNTemplate: bf.str("irn_template"), SupportPeppol: bf.bool("support_peppol"),
				IsRealtimeReporting: bf.bool("is_realtime_reporting"), ERPSystem: bf.str("erp_system"), IsActive: bf.bool("is_active")})
		}
	}
	if e.TIN == "" {
		if b, ok := e.Business(); ok {
			e.TIN = b.TIN
		}
	}
	if e.Name == "" {
		if b, ok := e.Business(); ok {
			e.Name = b.Name
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
