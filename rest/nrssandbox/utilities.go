package nrssandbox

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb"
)

// tinView is VerifyTin's data, with the fields and value types of FIRS's
// documented sample (all strings). The sandbox knows no national register:
// it answers for the caller's own TIN and its parties' TINs, and leaves
// blank what it does not hold (jtb_tin, rc_number, the tax officer).
type tinView struct {
	Address        string `json:"address"`
	Email          string `json:"email"`
	ID             string `json:"id"`
	JTBTIN         string `json:"jtb_tin"`
	Message        string `json:"message"`
	Phone          string `json:"phone"`
	RCNumber       string `json:"rc_number"`
	Status         string `json:"status"`
	TaxOfficerID   string `json:"taxofficer_id"`
	TaxOfficerName string `json:"taxofficer_name"`
	TaxpayerName   string `json:"taxpayer_name"`
	TaxpayerType   string `json:"taxpayer_type"`
	TIN            string `json:"tin"`
}

// verifyTIN is POST /api/v1/utilities/verify-tin/ (VerifyTin), body
// {"tin": "..."}. A TIN the sandbox does not hold for the caller is a 404
// (einvoice's reading).
func (h *Handler) verifyTIN(w http.ResponseWriter, r *http.Request) error {
	return h.authed(func(w http.ResponseWriter, r *http.Request, b *business) error {
		var in struct {
			TIN string `json:"tin"`
		}
		if _, err := h.decodeBody(r, &in); err != nil {
			return err
		}
		tin := strings.TrimSpace(in.TIN)
		if tin == "" || len(tin) > 64 {
			return invalid("tin is required (at most 64 characters)")
		}
		v := tinView{Message: "TIN Information", Status: "200 OK", TaxpayerType: "C", TIN: tin}
		if strings.EqualFold(tin, b.TIN) {
			v.ID, v.Email, v.TaxpayerName = b.EntityID, b.Email, b.Name
		} else {
			p, err := h.db.Parties().ByTIN(r.Context(), b.BusinessID, tin)
			switch {
			case errors.Is(err, sandboxdb.ErrNotFound):
				return notFound("the sandbox holds no taxpayer with this tin for this business")
			case err != nil:
				return err
			}
			v.ID, v.Email, v.TaxpayerName, v.Phone = p.ID, p.Email, p.PartyName, p.Telephone
			v.Address = strings.Trim(strings.Join([]string{p.StreetName, p.CityName, p.PostalZone, p.Country}, ", "), ", ")
		}
		writeData(w, http.StatusOK, v)
		return nil
	})(w, r)
}

// loginView is AuthenticateTaxPayer's data, with the fields of FIRS's
// documented sample.
type loginView struct {
	EntityID   string `json:"entity_id"`
	ID         string `json:"id"`
	Message    string `json:"message"`
	ReceivedAt string `json:"received_at"`
	Status     string `json:"status"`
}

// authenticateTaxpayer is POST /api/v1/utilities/authenticate
// (AuthenticateTaxPayer), body {"email","password"}: it lets an APP find the
// entity id of a taxpayer who logs in. In the sandbox the taxpayer is a
// registered business with a password (admin registration, --demo);
// anything else is refused with 400 (einvoice's reading).
func (h *Handler) authenticateTaxpayer(w http.ResponseWriter, r *http.Request) error {
	return h.authed(func(w http.ResponseWriter, r *http.Request, _ *business) error {
		var in struct {
			Email    string `json:"email"`
			Password string `json:"password"`
		}
		if _, err := h.decodeBody(r, &in); err != nil {
			return err
		}
		if in.Email == "" || in.Password == "" || len(in.Email) > 254 || len(in.Password) > 256 {
			return invalid("email and password are required")
		}
		t, err := h.db.Businesses().ByEmail(r.Context(), strings.TrimSpace(in.Email))
		if err != nil && !errors.Is(err, sandboxdb.ErrNotFound) {
			return err
		}
		want, id := unknownHash, ""
		if t != nil && t.PasswordHash != "" {
			want, id = t.PasswordHash, t.BusinessID
		}
		if subtle.ConstantTimeCompare([]byte(passwordHash(id, in.Password)), []byte(want)) != 1 || id == "" {
			return invalid("invalid email or password")
		}
		writeData(w, http.StatusOK, loginView{
			EntityID: t.EntityID, ID: uuid.NewSHA1(uuid.NameSpaceURL, []byte("nrs-sandbox:taxpayer:"+t.BusinessID)).String(),
			Message: "User logged in", ReceivedAt: h.opts.Now().Format(time.RFC3339Nano), Status: "200 OK",
		})
		return nil
	})(w, r)
}
