package nrssandbox

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"
)

// entityView is an entity (the taxpayer, one TIN) with its business, in
// the shape integrators read (integrator-evidence.md E4: id, reference,
// custom_settings, created_at, updated_at, is_active, app_reference and
// businesses[]; the integration picks the business whose id equals
// reference), with name, tin and email kept beside them from the fields an
// applicant read off the sandbox. Einvoice's reading: NRS publishes only the
// error answer.
type entityView struct {
	ID             string             `json:"id"`
	Reference      string             `json:"reference"`
	CustomSettings map[string]any     `json:"custom_settings"`
	CreatedAt      string             `json:"created_at"`
	UpdatedAt      string             `json:"updated_at"`
	IsActive       bool               `json:"is_active"`
	AppReference   string             `json:"app_reference"`
	Name           string             `json:"name"`
	TIN            string             `json:"tin"`
	Email          string             `json:"email"`
	Businesses     []entityBusinessVw `json:"businesses"`
}

type entityBusinessVw struct {
	ID                   string         `json:"id"`
	Reference            string         `json:"reference"`
	Name                 string         `json:"name"`
	TIN                  string         `json:"tin"`
	Sector               string         `json:"sector"`
	AnnualTurnover       string         `json:"annual_turnover"`
	SupportPeppol        bool           `json:"support_peppol"`
	IsRealtimeReporting  bool           `json:"is_realtime_reporting"`
	NotificationChannels []string       `json:"notification_channels"`
	ERPSystem            string         `json:"erp_system"`
	IRNTemplate          string         `json:"irn_template"`
	IsActive             bool           `json:"is_active"`
	CustomSettings       map[string]any `json:"custom_settings"`
	CreatedAt            string         `json:"created_at"`
	UpdatedAt            string         `json:"updated_at"`
	ServiceID            string         `json:"service_id"`
}

// sandboxAppReference names the access point in app_reference.
const sandboxAppReference = "einvoice-nrs-sandbox"

func entityOf(b *business) entityView {
	return entityView{ID: b.EntityID, Reference: b.BusinessID, CustomSettings: map[string]any{},
		CreatedAt: stamp(b.CreatedAt), UpdatedAt: stamp(b.UpdatedAt), IsActive: true, AppReference: sandboxAppReference,
		Name: b.Name, TIN: b.TIN, Email: b.Email,
		Businesses: []entityBusinessVw{{ID: b.BusinessID, Reference: b.BusinessID, Name: b.Name, TIN: b.TIN,
			NotificationChannels: []string{}, IRNTemplate: irnTemplate(b.ServiceID), IsActive: true,
			CustomSettings: map[string]any{}, CreatedAt: stamp(b.CreatedAt), UpdatedAt: stamp(b.UpdatedAt),
			ServiceID: b.ServiceID}}}
}

// irnTemplate is the business's IRN template as the sandbox showed one.
func irnTemplate(serviceID string) string {
	return "{{invoice_id(e.g:INV00XXX)}}-" + serviceID + "-{{YYYYMMDD(e.g:20250629)}}"
}

// searchEntity is GET /api/v1/entity (SearchEntity): the entities the
// caller may read, which in the sandbox is its own, filtered by reference
// (any part of its TIN, name or id, any case).
func (h *Handler) searchEntity(w http.ResponseWriter, r *http.Request) error {
	return h.authed(func(w http.ResponseWriter, r *http.Request, b *business) error {
		p := pageOf(r)
		var items []entityView
		ref := strings.ToLower(strings.TrimSpace(r.URL.Query().Get("reference")))
		e := entityOf(b)
		if ref == "" || strings.Contains(strings.ToLower(e.TIN+" "+e.Name+" "+e.ID), ref) {
			items = append(items, e)
		}
		total := len(items)
		if p.Number > 1 {
			items = nil
		}
		writeData(w, http.StatusOK, newPage(items, p, total))
		return nil
	})(w, r)
}

// getEntity is GET /api/v1/entity/{ENTITY_ID} (GetEntity). Like MBS it
// checks that the id is a UUID before it looks at the credentials (the
// captured answer came with the Swagger's placeholder key).
func (h *Handler) getEntity(w http.ResponseWriter, r *http.Request) error {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return badUUID(err)
	}
	return h.authed(func(w http.ResponseWriter, r *http.Request, b *business) error {
		if id.String() != b.EntityID {
			return notFound("no entity with this id for this api key")
		}
		writeData(w, http.StatusOK, entityOf(b))
		return nil
	})(w, r)
}
