package authority

import (
	"context"
	"crypto/rsa"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
)

// Issuer is what invoice operations need of a project, with its public key
// parsed and its certificate opened once per cache period instead of on
// every request.
type Issuer struct {
	Project *model.Project
	// Authority is the project's tax authority rules (nil when the project
	// names one that is not supported).
	Authority   model.Authority
	PublicKey   *rsa.PublicKey
	Fingerprint string
	Certificate string
	fetched     time.Time
}

// Profile is the project's validation profile.
func (it *Issuer) Profile() model.ValidationProfile {
	if it.Project.ValidationProfile == "" {
		return model.ProfileNRS
	}
	return it.Project.ValidationProfile
}

// Configured fails with authority_not_configured unless the project can
// issue invoices.
func (it *Issuer) Configured() error {
	if !it.Project.Configured || it.Authority == nil || it.PublicKey == nil || it.Project.ServiceID == "" {
		return model.Errorf(model.CodeAuthorityNotConfigured,
			"this project's tax authority settings are not configured; set them with PUT /api/v2/projects/%s/authority", it.Project.ID)
	}
	return nil
}

// issuerCache keeps issuers by project id for a short time; this process
// forgets a project at once when its settings change (Forget).
type issuerCache struct {
	ttl   time.Duration
	mu    sync.RWMutex
	items map[uuid.UUID]*Issuer
}

// maxCachedIssuers bounds the cache's memory.
const maxCachedIssuers = 50000

func newIssuerCache(ttl time.Duration) *issuerCache {
	return &issuerCache{ttl: ttl, items: map[uuid.UUID]*Issuer{}}
}

// Issuer returns the invoice-issuing settings of a project the caller
// already reached (its key's, or one access granted).
func (d *Directory) Issuer(ctx context.Context, projectID uuid.UUID) (*Issuer, error) {
	now := d.cfg.Now()
	c := d.issuers
	c.mu.RLock()
	it, ok := c.items[projectID]
	c.mu.RUnlock()
	if ok && now.Sub(it.fetched) < c.ttl {
		return it, nil
	}
	pr, err := d.st.Projects().ByID(ctx, projectID)
	if err != nil {
		return nil, err
	}
	it = &Issuer{Project: pr, fetched: now}
	if pr.Configured {
		if a, ok := d.cfg.Authorities.Lookup(pr.TaxAuthorityCode); ok {
			it.Authority = a
		}
		if pub, _, err := ParsePublicKey(pr.PublicKey); err == nil {
			it.PublicKey, it.Fingerprint = pub, nrs.KeyFingerprint(pub)
		}
		if it.Certificate, err = d.Open(pr.ID, "certificate", pr.CertificateEnc); err != nil {
			return nil, err
		}
	}
	c.mu.Lock()
	if len(c.items) >= maxCachedIssuers {
		clear(c.items)
	}
	c.items[projectID] = it
	c.mu.Unlock()
	return it, nil
}

// Forget drops a project's cached Issuer: this process sees a change of its
// settings at once, other processes within CacheTTL.
func (d *Directory) Forget(projectID uuid.UUID) {
	d.issuers.mu.Lock()
	delete(d.issuers.items, projectID)
	d.issuers.mu.Unlock()
}
