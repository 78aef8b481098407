package nrssandbox

import (
	"net/http"

	"github.com/einvoice-ng/einvoice/model"
)

// registerBusiness is the admin endpoint POST /sandbox/businesses: it
// registers (or replaces) a Business, so that a standalone stand-in can
// serve projects of an einvoice API running elsewhere.
func (h *Handler) registerBusiness(w http.ResponseWriter, r *http.Request) error {
	var in Business
	if _, err := h.decodeBody(r, &in); err != nil {
		return err
	}
	if err := h.reg.Register(in); err != nil {
		e := model.AsError(err)
		if len(e.Fields) > 0 {
			return badRequest("invalid business", e.Fields)
		}
		return &apiError{status: http.StatusConflict, public: "invalid business", details: e.Message}
	}
	info, _ := h.reg.Lookup(in.BusinessID)
	writeData(w, http.StatusCreated, info)
	return nil
}

// listBusinesses is the admin endpoint GET /sandbox/businesses: the
// registered businesses, without secrets.
func (h *Handler) listBusinesses(w http.ResponseWriter, _ *http.Request) error {
	writeData(w, http.StatusOK, h.reg.Businesses())
	return nil
}
