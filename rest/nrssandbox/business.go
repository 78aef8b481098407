package nrssandbox

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb"
)

// Business is a registration: a business the stand-in acts as NRS for, its
// ids, its QR key material and the API credentials its calls present. The
// JSON form is the body of the admin endpoint POST /sandbox/businesses.
//
// Owner is whoever registers it (an einvoice project: "project:<uuid>"). A
// business belongs to its owner: registering a business_id, API key or TIN
// that another owner holds is refused, and an owner holds one business
// (registering another business_id replaces the owner's previous business,
// its parties and invoices).
type Business struct {
	Owner      string `json:"owner"`
	BusinessID string `json:"business_id"`
	// ServiceID is the 8-character service ID its IRNs embed.
	ServiceID string `json:"service_id"`
	// Name, TIN and Email describe the taxpayer (entity lookups, verify-tin);
	// defaults are derived from the ids. Password, when set, lets the
	// taxpayer log in with AuthenticateTaxPayer (Email and Password).
	Name     string `json:"name,omitempty"`
	TIN      string `json:"tin,omitempty"`
	Email    string `json:"email,omitempty"`
	Password string `json:"password,omitempty"`
	// Certificate is the opaque token QR payloads carry.
	Certificate string `json:"certificate"`
	// PrivateKeyPEM decrypts the business's QR payloads (PEM, or the base64
	// of one). Without it QR verification is refused.
	PrivateKeyPEM string `json:"private_key,omitempty"`
	// PublicKey is checked against the private key when both are given.
	PublicKey string `json:"public_key,omitempty"`
	// QREncryption is the business's QR scheme; default RSA-PKCS1-v1_5.
	QREncryption model.QREncryption `json:"qr_encryption,omitempty"`
	// APIKey and APISecret are what the business sends as x-api-key and
	// x-api-secret.
	APIKey    string `json:"api_key"`
	APISecret string `json:"api_secret"`
}

// String describes the registration without its secrets.
func (b Business) String() string {
	return fmt.Sprintf("nrssandbox.Business{Owner:%s BusinessID:%s ServiceID:%s APIKey:[REDACTED] APISecret:[REDACTED]}",
		b.Owner, b.BusinessID, b.ServiceID)
}

// GoString is String, for %#v.
func (b Business) GoString() string { return b.String() }

// LogValue logs the registration without its secrets.
func (b Business) LogValue() slog.Value {
	return slog.GroupValue(slog.String("owner", b.Owner), slog.String("business_id", b.BusinessID),
		slog.String("service_id", b.ServiceID))
}

// BusinessInfo is a registered business as the admin endpoints show it: no
// secrets.
type BusinessInfo struct {
	Owner         string             `json:"owner"`
	BusinessID    string             `json:"business_id"`
	EntityID      string             `json:"entity_id"`
	ServiceID     string             `json:"service_id"`
	TIN           string             `json:"tin"`
	Name          string             `json:"name"`
	Email         string             `json:"email"`
	QREncryption  model.QREncryption `json:"qr_encryption"`
	HasPrivateKey bool               `json:"has_private_key"`
	CreatedAt     time.Time          `json:"created_at"`
	UpdatedAt     time.Time          `json:"updated_at"`
}

func infoOf(b *sandboxdb.Business) BusinessInfo {
	return BusinessInfo{Owner: b.Owner, BusinessID: b.BusinessID, EntityID: b.EntityID, ServiceID: b.ServiceID,
		TIN: b.TIN, Name: b.Name, Email: b.Email, QREncryption: model.QREncryption(b.QREncryption),
		HasPrivateKey: b.PrivateKey != "", CreatedAt: b.CreatedAt, UpdatedAt: b.UpdatedAt}
}

var serviceIDPattern = regexp.MustCompile(`^[A-Za-z0-9]{8}$`)

// OwnerOfProject is the owner of an einvoice project's business.
func OwnerOfProject(projectID uuid.UUID) string { return "project:" + projectID.String() }

// RegisterSandboxBusiness registers an einvoice sandbox project's business,
// owned by the project. It implements the application's registrar in
// process; AdminClient does the same over HTTP. Errors are *model.Error:
// invalid, conflict (the business, API key or TIN belongs to another
// project) or unavailable.
func (h *Handler) RegisterSandboxBusiness(ctx context.Context, b model.SandboxBusiness) error {
	_, err := h.Register(ctx, businessOf(b))
	return modelError(err)
}

// businessOf is the registration of a sandbox project.
func businessOf(b model.SandboxBusiness) Business {
	return Business{
		Owner: OwnerOfProject(b.ProjectID), BusinessID: b.BusinessID, ServiceID: b.ServiceID,
		Name: "Sandbox business " + strings.ToUpper(b.ServiceID), Certificate: b.Certificate,
		PrivateKeyPEM: b.PrivateKeyPEM, PublicKey: b.PublicKeyPEM, QREncryption: b.QREncryption,
		APIKey: b.APIKey, APISecret: b.APISecret,
	}
}

// modelError turns a registration failure into the application's error.
func modelError(err error) error {
	var e *apiError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &e) && e.status == http.StatusConflict:
		return model.Errorf(model.CodeConflict, "NRS sandbox: %s", e.details)
	case errors.As(err, &e) && e.status < 500:
		return model.Errorf(model.CodeInvalid, "NRS sandbox: %s", e.details)
	}
	return model.Wrap(model.CodeUnavailable, err, "the NRS sandbox cannot register the business now")
}

// Register adds a business or registers it again (same owner), in one
// transaction. Bad input is a 400 with every problem in details; a
// business_id, API key or TIN of another owner, or a full stand-in, is a
// 409.
func (h *Handler) Register(ctx context.Context, in Business) (BusinessInfo, error) {
	defer h.keys.changed()
	row, problems := h.checkBusiness(in)
	if len(problems) > 0 {
		return BusinessInfo{}, invalid("invalid business: %s", strings.Join(problems, "; "))
	}
	explicitTIN := row.TIN != ""
	err := h.db.RunInTx(ctx, func(ctx context.Context, tx *sandboxdb.DB) error {
		cur, err := found(tx.Businesses().ByID(ctx, row.BusinessID))
		if err != nil {
			return err
		}
		if cur != nil && cur.Owner != row.Owner {
			return conflict("business_id %s is registered by another owner", row.BusinessID)
		}
		byKey, err := found(tx.Businesses().ByAPIKey(ctx, row.APIKey))
		if err != nil {
			return err
		}
		if byKey != nil && byKey.Owner != row.Owner {
			return conflict("api_key is used by another business")
		}
		prev, err := found(tx.Businesses().ByOwner(ctx, row.Owner))
		if err != nil {
			return err
		}
		if prev != nil && prev.BusinessID != row.BusinessID {
			// One business per owner: the owner moved to a new business_id.
			if err := tx.Businesses().Delete(ctx, prev.BusinessID); err != nil {
				return err
			}
		}
		if cur != nil {
			row.EntityID, row.CreatedAt = cur.EntityID, cur.CreatedAt
			if !explicitTIN {
				row.TIN = cur.TIN
			}
			if row.PasswordHash == "" && in.Password == "" {
				row.PasswordHash = cur.PasswordHash
			}
			if err := tx.Businesses().Update(ctx, row); err != nil {
				return conflictOf(err, "tin %s is used by another business", row.TIN)
			}
			return nil
		}
		n, err := tx.Businesses().Count(ctx)
		if err != nil {
			return err
		}
		if n >= h.opts.MaxBusinesses {
			return conflict("the sandbox holds its limit of %d businesses", h.opts.MaxBusinesses)
		}
		row.EntityID = uuid.NewString()
		if !explicitTIN {
			row.TIN, err = h.freeTIN(ctx, tx, row.BusinessID)
			if err != nil {
				return err
			}
		}
		return conflictOf(tx.Businesses().Insert(ctx, row), "business_id, api_key or tin is used by another business")
	})
	if err != nil {
		return BusinessInfo{}, err
	}
	return infoOf(row), nil
}

// checkBusiness checks a registration and builds its row.
func (h *Handler) checkBusiness(in Business) (*sandboxdb.Business, []string) {
	var p []string
	owner := strings.TrimSpace(in.Owner)
	if owner == "" || len(owner) > 200 {
		p = append(p, "owner is required (at most 200 characters)")
	}
	id := strings.ToLower(strings.TrimSpace(in.BusinessID))
	if u, err := uuid.Parse(id); err != nil || len(id) != 36 || u == uuid.Nil {
		p = append(p, "business_id must be a UUID")
	}
	if !serviceIDPattern.MatchString(in.ServiceID) {
		p = append(p, "service_id must be exactly 8 letters and digits")
	}
	cert := strings.TrimSpace(in.Certificate)
	if cert == "" || len(cert) > 4096 {
		p = append(p, "certificate is required (at most 4096 characters)")
	}
	if in.APIKey == "" || len(in.APIKey) > 512 {
		p = append(p, "api_key is required (at most 512 characters)")
	}
	if in.APISecret == "" || len(in.APISecret) > 512 {
		p = append(p, "api_secret is required (at most 512 characters)")
	}
	for _, f := range []struct {
		name, value string
		max         int
	}{{"name", in.Name, 200}, {"tin", in.TIN, 64}, {"email", in.Email, 254}, {"password", in.Password, 256}} {
		if len(f.value) > f.max {
			p = append(p, f.name+" must be at most "+strconv.Itoa(f.max)+" characters")
		}
	}
	enc := in.QREncryption
	if enc == "" {
		enc = model.QREncryptionPKCS1v15
	}
	if enc != model.QREncryptionPKCS1v15 && enc != model.QREncryptionOAEPSHA256 {
		p = append(p, "qr_encryption must be RSA-PKCS1-v1_5 or RSA-OAEP-SHA256")
	}
	privPEM, pubPEM := "", strings.TrimSpace(in.PublicKey)
	if strings.TrimSpace(in.PrivateKeyPEM) != "" {
		priv, err := nrs.ParsePrivateKey(in.PrivateKeyPEM)
		switch {
		case err != nil:
			p = append(p, fieldMessages(err)...)
		default:
			der, _ := x509.MarshalPKCS8PrivateKey(priv)
			privPEM = string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
			if pubPEM != "" {
				pub, err := nrs.ParsePublicKey(pubPEM)
				switch {
				case err != nil:
					p = append(p, fieldMessages(err)...)
				case !pub.Equal(&priv.PublicKey):
					p = append(p, "public_key does not belong to private_key")
				}
			}
			pkix, _ := x509.MarshalPKIXPublicKey(&priv.PublicKey)
			pubPEM = string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pkix}))
		}
	} else if pubPEM != "" {
		if _, err := nrs.ParsePublicKey(pubPEM); err != nil {
			p = append(p, fieldMessages(err)...)
		}
	}
	if len(p) > 0 {
		return nil, p
	}
	now := h.now()
	row := &sandboxdb.Business{
		BusinessID: id, Owner: owner, ServiceID: strings.ToUpper(in.ServiceID), TIN: strings.TrimSpace(in.TIN),
		Name: strings.TrimSpace(in.Name), Email: strings.TrimSpace(in.Email), Certificate: cert,
		PublicKey: pubPEM, PrivateKey: privPEM, QREncryption: string(enc), APIKey: in.APIKey,
		APISecretHash: secretHash(in.APISecret), CreatedAt: now, UpdatedAt: now,
	}
	sealed, err := h.sealPrivateKey(id, privPEM)
	if err != nil {
		return nil, []string{"the private key cannot be sealed: " + err.Error()}
	}
	row.PrivateKey = sealed
	if row.Name == "" {
		row.Name = "Sandbox business " + row.ServiceID
	}
	if row.Email == "" {
		row.Email = strings.ToLower(row.ServiceID) + "@" + id[:8] + ".sandbox.invalid"
	}
	if in.Password != "" {
		row.PasswordHash = passwordHash(id, in.Password)
	}
	return row, nil
}

// freeTIN derives a TIN shaped like FIRS's (8 digits, "-", 4 digits) from the
// business id, moving to the next branch number when another business holds
// it.
func (h *Handler) freeTIN(ctx context.Context, tx *sandboxdb.DB, businessID string) (string, error) {
	sum := sha256.Sum256([]byte(businessID))
	base := binary.BigEndian.Uint64(sum[:8]) % 100_000_000
	for branch := 1; branch < 10000; branch++ {
		tin := fmt.Sprintf("%08d-%04d", base, branch)
		taken, err := found(tx.Businesses().ByTIN(ctx, tin))
		if err != nil {
			return "", err
		}
		if taken == nil {
			return tin, nil
		}
	}
	return "", conflict("no free TIN for business %s", businessID)
}

// passwordHash keeps a taxpayer's sandbox password: SHA-256 salted with the
// business id (a sandbox login, never a real one).
func passwordHash(businessID, password string) string {
	return secretHash(businessID + "\x00" + password)
}

// found turns ErrNotFound into a nil row.
func found(b *sandboxdb.Business, err error) (*sandboxdb.Business, error) {
	if errors.Is(err, sandboxdb.ErrNotFound) {
		return nil, nil
	}
	return b, err
}

func conflict(format string, args ...any) *apiError {
	return &apiError{status: http.StatusConflict, public: "invalid business", details: fmt.Sprintf(format, args...)}
}

// conflictOf turns a unique violation into a 409.
func conflictOf(err error, format string, args ...any) error {
	if errors.Is(err, sandboxdb.ErrConflict) {
		return conflict(format, args...)
	}
	return err
}

// registerBusiness is the admin endpoint POST /sandbox/businesses.
func (h *Handler) registerBusiness(w http.ResponseWriter, r *http.Request) error {
	var in Business
	if _, err := h.decodeBody(r, &in); err != nil {
		return err
	}
	info, err := h.Register(r.Context(), in)
	if err != nil {
		return err
	}
	writeData(w, http.StatusCreated, info)
	return nil
}

// listBusinesses is the admin endpoint GET /sandbox/businesses?after=&limit=:
// the registered businesses by business id, without secrets.
func (h *Handler) listBusinesses(w http.ResponseWriter, r *http.Request) error {
	limit := 100
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 500 {
			return invalid("limit must be a number from 1 to 500")
		}
		limit = n
	}
	rows, err := h.db.Businesses().List(r.Context(), r.URL.Query().Get("after"), limit)
	if err != nil {
		return err
	}
	out := make([]BusinessInfo, 0, len(rows))
	for i := range rows {
		out = append(out, infoOf(&rows[i]))
	}
	writeData(w, http.StatusOK, out)
	return nil
}

// fieldMessages lists the problems of a *model.Error as messages.
func fieldMessages(err error) []string {
	e := model.AsError(err)
	out := make([]string, 0, len(e.Fields)+1)
	for _, f := range e.Fields {
		out = append(out, f.Msg)
	}
	if len(out) == 0 {
		out = append(out, e.Message)
	}
	return out
}
