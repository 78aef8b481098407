package nrssandbox

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb"
)

// partyBody is CreateParty's body (FIRS's example): either a stored
// postal_address_id or an inline postal_address.
type partyBody struct {
	BusinessID          string          `json:"business_id"`
	PartyName           string          `json:"party_name"`
	TIN                 string          `json:"tin"`
	Email               string          `json:"email"`
	Telephone           string          `json:"telephone"`
	BusinessDescription string          `json:"business_description"`
	PostalAddressID     string          `json:"postal_address_id"`
	PostalAddress       json.RawMessage `json:"postal_address"`
}

type addressBody struct {
	StreetName string `json:"street_name"`
	CityName   string `json:"city_name"`
	PostalZone string `json:"postal_zone"`
	Country    string `json:"country"`
}

// partyView is a party as CreateParty and SearchParty answer it: the
// party's id and its postal address's id, both UUIDs as the sandbox
// returned them, with the fields sent (einvoice's reading).
type partyView struct {
	ID                  string      `json:"id"`
	BusinessID          string      `json:"business_id"`
	PartyName           string      `json:"party_name"`
	TIN                 string      `json:"tin"`
	Email               string      `json:"email"`
	Telephone           string      `json:"telephone,omitempty"`
	BusinessDescription string      `json:"business_description,omitempty"`
	PostalAddressID     string      `json:"postal_address_id"`
	PostalAddress       addressView `json:"postal_address"`
	CreatedAt           string      `json:"created_at"`
}

type addressView struct {
	ID         string `json:"id"`
	StreetName string `json:"street_name"`
	CityName   string `json:"city_name"`
	PostalZone string `json:"postal_zone"`
	Country    string `json:"country"`
}

func partyOf(p *sandboxdb.Party) partyView {
	return partyView{ID: p.ID, BusinessID: p.BusinessID, PartyName: p.PartyName, TIN: p.TIN, Email: p.Email,
		Telephone: p.Telephone, BusinessDescription: p.BusinessDescription, PostalAddressID: p.PostalAddressID,
		PostalAddress: addressView{ID: p.PostalAddressID, StreetName: p.StreetName, CityName: p.CityName,
			PostalZone: p.PostalZone, Country: p.Country},
		CreatedAt: stamp(p.CreatedAt)}
}

// createParty is POST /api/v1/invoice/party (CreateParty): the party and
// its postal address get UUIDs that invoices may then name. party_name, tin
// and email are required ("now mandatory"), and an address either way;
// telephone, when sent, starts with "+". Answers 201 with the party
// (einvoice's reading).
func (h *Handler) createParty(w http.ResponseWriter, r *http.Request) error {
	return h.authed(func(w http.ResponseWriter, r *http.Request, b *business) error {
		var in partyBody
		if _, err := h.decodeBody(r, &in); err != nil {
			return err
		}
		if !sameID(in.BusinessID, b.BusinessID) {
			return noBusiness()
		}
		p := &sandboxdb.Party{ID: uuid.NewString(), BusinessID: b.BusinessID, PartyName: strings.TrimSpace(in.PartyName),
			TIN: strings.TrimSpace(in.TIN), Email: strings.TrimSpace(in.Email), Telephone: strings.TrimSpace(in.Telephone),
			BusinessDescription: strings.TrimSpace(in.BusinessDescription), CreatedAt: h.now()}
		var problems []string
		for _, f := range []struct{ name, value string }{{"party_name", p.PartyName}, {"tin", p.TIN}, {"email", p.Email}} {
			switch {
			case f.value == "":
				problems = append(problems, f.name+" is required")
			case len(f.value) > 512:
				problems = append(problems, f.name+" must be at most 512 characters")
			}
		}
		if p.Telephone != "" && !strings.HasPrefix(p.Telephone, "+") {
			problems = append(problems, "telephone must start with + (the country code)")
		}
		if len(p.Telephone) > 64 || len(p.BusinessDescription) > 2048 {
			problems = append(problems, "telephone (64) or business_description (2048) is too long")
		}
		switch addr := strings.TrimSpace(string(in.PostalAddress)); {
		case in.PostalAddressID != "":
			u, err := uuid.Parse(in.PostalAddressID)
			if err != nil {
				problems = append(problems, "postal_address_id: "+err.Error())
			}
			p.PostalAddressID = u.String()
		case addr != "" && addr != "null":
			var a addressBody
			if err := json.Unmarshal(in.PostalAddress, &a); err != nil {
				problems = append(problems, "postal_address must be an object of strings")
			} else if len(a.StreetName)+len(a.CityName)+len(a.PostalZone)+len(a.Country) > 2048 {
				problems = append(problems, "postal_address is too long")
			}
			p.PostalAddressID = uuid.NewString()
			p.StreetName, p.CityName, p.PostalZone, p.Country = a.StreetName, a.CityName, a.PostalZone, a.Country
		default:
			problems = append(problems, "postal_address_id or postal_address is required")
		}
		if len(problems) > 0 {
			return invalid("%s", strings.Join(problems, "; "))
		}
		err := h.db.RunInTx(r.Context(), func(ctx context.Context, tx *sandboxdb.DB) error {
			n, err := tx.Parties().Count(ctx, b.BusinessID)
			if err != nil {
				return err
			}
			if n >= h.opts.MaxPartiesPerBusiness {
				return invalid("this business holds the sandbox's limit of %d parties", h.opts.MaxPartiesPerBusiness)
			}
			return tx.Parties().Insert(ctx, p)
		})
		if err != nil {
			return err
		}
		writeData(w, http.StatusCreated, partyOf(p))
		return nil
	})(w, r)
}

// searchParty is GET /api/v1/invoice/party/{BUSINESS_ID} (SearchParty): a
// page of the business's parties, party_name matching any part of the name.
func (h *Handler) searchParty(w http.ResponseWriter, r *http.Request) error {
	return h.authed(func(w http.ResponseWriter, r *http.Request, b *business) error {
		if err := h.ownBusiness(chi.URLParam(r, "business_id"), b); err != nil {
			return err
		}
		p := pageOf(r)
		rows, total, err := h.db.Parties().Search(r.Context(), b.BusinessID, strings.TrimSpace(r.URL.Query().Get("party_name")), p)
		if err != nil {
			return err
		}
		items := make([]partyView, 0, len(rows))
		for i := range rows {
			items = append(items, partyOf(&rows[i]))
		}
		writeData(w, http.StatusOK, newPage(items, p, total))
		return nil
	})(w, r)
}
