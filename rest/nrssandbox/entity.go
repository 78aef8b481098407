package nrssandbox

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"
)

// entityView is an entity (the taxpayer, one TIN) with its business:
// einvoice's reading, from the fields an applicant read off the sandbox
// (entity id, business id and name, TIN, IRN template).
type entityView struct {
	ID         string             `json:"id"`
	Reference  string             `json:"reference"`
	Name       string             `json:"name"`
	TIN        string             `json:"tin"`
	Email      string             `json:"email"`
	Businesses []entityBusinessVw `json:"businesses"`
	CreatedAt  string             `json:"created_at"`
}

type entityBusinessVw struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	TIN         string `json:"tin"`
	ServiceID   string `json:"service_id"`
	IRNTemplate string `json:"irn_template"`
}

func entityOf(b *business) entityView {
	return entityView{ID: b.EntityID, Reference: b.TIN, Name: b.Name, TIN: b.TIN, Email: b.Email,
		CreatedAt: stamp(b.CreatedAt),
		Businesses: []entityBusinessVw{{ID: b.BusinessID, Name: b.Name, TIN: b.TIN, ServiceID: b.ServiceID,
			IRNTemplate: irnTemplate(b.ServiceID)}}}
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
