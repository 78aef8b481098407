package nrssandbox

import (
	"context"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/service"
)

// DefaultMaxBusinesses bounds a Registry made with a zero limit.
const DefaultMaxBusinesses = 10000

// Business is one business the stand-in acts as NRS for: its ids, its QR key
// material and the API credentials its calls present. The JSON form is the
// body of the admin endpoint POST /sandbox/businesses.
type Business struct {
	// BusinessID is the business's UUID at NRS.
	BusinessID string `json:"business_id"`
	// ServiceID is the 8-character service ID its IRNs embed.
	ServiceID string `json:"service_id"`
	// Name is shown in listings only.
	Name string `json:"name,omitempty"`
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

// String describes the business without its secrets.
func (b Business) String() string {
	return fmt.Sprintf("nrssandbox.Business{BusinessID:%s ServiceID:%s APIKey:[REDACTED] APISecret:[REDACTED]}",
		b.BusinessID, b.ServiceID)
}

// GoString is String, for %#v.
func (b Business) GoString() string { return b.String() }

// BusinessInfo is a registered business as listings show it: no secrets.
type BusinessInfo struct {
	BusinessID    string             `json:"business_id"`
	ServiceID     string             `json:"service_id"`
	Name          string             `json:"name,omitempty"`
	QREncryption  model.QREncryption `json:"qr_encryption"`
	HasPrivateKey bool               `json:"has_private_key"`
}

// business is a registered Business, parsed once. The API secret is kept
// only as its SHA-256.
type business struct {
	id          string
	serviceID   string
	name        string
	certificate string
	priv        *rsa.PrivateKey
	enc         model.QREncryption
	apiKey      string
	secretSum   [sha256.Size]byte
}

func (b *business) info() BusinessInfo {
	return BusinessInfo{BusinessID: b.id, ServiceID: b.serviceID, Name: b.name, QREncryption: b.enc, HasPrivateKey: b.priv != nil}
}

// Registry is the stand-in's set of businesses, keyed by business id and by
// API key. It is safe for concurrent use and bounded. It implements
// service.SandboxRegistrar, so a Service configured with it registers every
// sandbox project it creates.
type Registry struct {
	mu    sync.RWMutex
	max   int
	byID  map[string]*business
	byKey map[string]*business
}

var _ service.SandboxRegistrar = (*Registry)(nil)

// NewRegistry makes an empty registry holding at most maxBusinesses
// (DefaultMaxBusinesses when 0 or less).
func NewRegistry(maxBusinesses int) *Registry {
	if maxBusinesses <= 0 {
		maxBusinesses = DefaultMaxBusinesses
	}
	return &Registry{max: maxBusinesses, byID: map[string]*business{}, byKey: map[string]*business{}}
}

var serviceIDPattern = regexp.MustCompile(`^[A-Za-z0-9]{8}$`)

// Register adds a business, or replaces the one with the same business id
// (its old API key stops working). Bad input is an invalid *model.Error
// listing every problem; an API key used by another business or a full
// registry is a conflict.
func (r *Registry) Register(in Business) error {
	var p model.Problems
	id := strings.ToLower(strings.TrimSpace(in.BusinessID))
	if _, err := uuid.Parse(id); err != nil || len(id) != 36 {
		p.Add(model.ProblemUUIDParsing, "business_id must be a UUID", "business_id")
	}
	if !serviceIDPattern.MatchString(in.ServiceID) {
		p.Add(model.ProblemStringPatternMismatch, "service_id must be exactly 8 letters and digits", "service_id")
	}
	cert := strings.TrimSpace(in.Certificate)
	if cert == "" {
		p.Add(model.ProblemMissing, "certificate is required", "certificate")
	}
	if in.APIKey == "" {
		p.Add(model.ProblemMissing, "api_key is required", "api_key")
	}
	if in.APISecret == "" {
		p.Add(model.ProblemMissing, "api_secret is required", "api_secret")
	}
	enc := in.QREncryption
	if enc == "" {
		enc = model.QREncryptionPKCS1v15
	}
	if enc != model.QREncryptionPKCS1v15 && enc != model.QREncryptionOAEPSHA256 {
		p.Add(model.ProblemEnum, "qr_encryption must be RSA-PKCS1-v1_5 or RSA-OAEP-SHA256", "qr_encryption")
	}
	var priv *rsa.PrivateKey
	if strings.TrimSpace(in.PrivateKeyPEM) != "" {
		k, err := nrs.ParsePrivateKey(in.PrivateKeyPEM)
		if err != nil {
			p.AddAll(nil, model.AsError(err).Fields)
		} else {
			priv = k
		}
	}
	if priv != nil && strings.TrimSpace(in.PublicKey) != "" {
		pub, err := nrs.ParsePublicKey(in.PublicKey)
		switch {
		case err != nil:
			p.AddAll(nil, model.AsError(err).Fields)
		case !pub.Equal(&priv.PublicKey):
			p.Add(model.ProblemValueError, "public_key does not belong to private_key", "public_key")
		}
	}
	if err := p.Err(); err != nil {
		return err
	}
	b := &business{
		id: id, serviceID: strings.ToUpper(in.ServiceID), name: in.Name, certificate: cert,
		priv: priv, enc: enc, apiKey: in.APIKey, secretSum: sha256.Sum256([]byte(in.APISecret)),
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.byID[id]
	if other, ok := r.byKey[in.APIKey]; ok && other.id != id {
		return model.Errorf(model.CodeConflict, "api_key is already used by another business")
	}
	if old == nil && len(r.byID) >= r.max {
		return model.Errorf(model.CodeConflict, "the sandbox registry is full (%d businesses)", r.max)
	}
	if old != nil {
		delete(r.byKey, old.apiKey)
	}
	r.byID[id] = b
	r.byKey[b.apiKey] = b
	return nil
}

// RegisterSandboxBusiness registers a sandbox project's business; it
// implements service.SandboxRegistrar.
func (r *Registry) RegisterSandboxBusiness(_ context.Context, b service.SandboxBusiness) error {
	return r.Register(Business{
		BusinessID: b.BusinessID, ServiceID: b.ServiceID, Name: "project " + b.ProjectID.String(),
		Certificate: b.Certificate, PrivateKeyPEM: b.PrivateKeyPEM, PublicKey: b.PublicKeyPEM,
		QREncryption: b.QREncryption, APIKey: b.APIKey, APISecret: b.APISecret,
	})
}

// Remove forgets a business; it reports whether it was registered.
func (r *Registry) Remove(businessID string) bool {
	id := strings.ToLower(strings.TrimSpace(businessID))
	r.mu.Lock()
	defer r.mu.Unlock()
	b, ok := r.byID[id]
	if ok {
		delete(r.byID, id)
		delete(r.byKey, b.apiKey)
	}
	return ok
}

// Len returns the number of registered businesses.
func (r *Registry) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.byID)
}

// Businesses lists the registered businesses without secrets, by business id.
func (r *Registry) Businesses() []BusinessInfo {
	r.mu.RLock()
	out := make([]BusinessInfo, 0, len(r.byID))
	for _, b := range r.byID {
		out = append(out, b.info())
	}
	r.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].BusinessID < out[j].BusinessID })
	return out
}

// Lookup returns a registered business without secrets.
func (r *Registry) Lookup(businessID string) (BusinessInfo, bool) {
	b, ok := r.lookup(businessID)
	if !ok {
		return BusinessInfo{}, false
	}
	return b.info(), true
}

func (r *Registry) lookup(businessID string) (*business, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	b, ok := r.byID[strings.ToLower(strings.TrimSpace(businessID))]
	return b, ok
}

// unknownSum stands in for the secret of an unknown key, so that a miss
// costs the same comparison as a hit.
var unknownSum = sha256.Sum256([]byte("nrssandbox: no such api key"))

// authenticate finds the business of an API key and checks its secret in
// constant time.
func (r *Registry) authenticate(key, secret string) (*business, bool) {
	r.mu.RLock()
	b := r.byKey[key]
	r.mu.RUnlock()
	want := unknownSum
	if b != nil {
		want = b.secretSum
	}
	got := sha256.Sum256([]byte(secret))
	ok := subtle.ConstantTimeCompare(got[:], want[:]) == 1
	return b, ok && b != nil && key != ""
}
