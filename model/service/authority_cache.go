package service

import (
	"context"
	"crypto/rsa"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// issuer is what invoice operations need of a project, with the public key
// parsed and the certificate opened once per cache period instead of on
// every request.
type issuer struct {
	project     *model.Project
	authority   model.Authority
	publicKey   *rsa.PublicKey
	fingerprint string
	certificate string
	fetched     time.Time
}

// issuerCache keeps issuers by project id for a short time; this process
// forgets a project at once when its authority settings change.
type issuerCache struct {
	ttl   time.Duration
	mu    sync.RWMutex
	items map[uuid.UUID]*issuer
}

func newIssuerCache(ttl time.Duration) *issuerCache {
	return &issuerCache{ttl: ttl, items: map[uuid.UUID]*issuer{}}
}

func (c *issuerCache) forget(id uuid.UUID) {
	c.mu.Lock()
	delete(c.items, id)
	c.mu.Unlock()
}

// issuer returns the invoice-issuing settings of the key's project. An
// unconfigured project is a conflict with code authority_not_configured.
func (s *Service) issuer(ctx context.Context, projectID uuid.UUID) (*issuer, error) {
	now := s.cfg.Now()
	s.issuers.mu.RLock()
	it, ok := s.issuers.items[projectID]
	s.issuers.mu.RUnlock()
	if ok && now.Sub(it.fetched) < s.issuers.ttl {
		return it, nil
	}
	pr, err := s.store.Projects().ByID(ctx, projectID)
	if err != nil {
		return nil, err
	}
	it = &issuer{project: pr, fetched: now}
	if pr.Configured {
		if a, ok := s.cfg.Authorities.Lookup(pr.TaxAuthorityCode); ok {
			it.authority = a
		}
		if pub, _, err := parsePublicKey(pr.PublicKey); err == nil {
			it.publicKey, it.fingerprint = pub, fingerprint(pub)
		}
		if it.certificate, err = s.open(pr.ID, "certificate", pr.CertificateEnc); err != nil {
			return nil, err
		}
	}
	s.issuers.mu.Lock()
	if len(s.issuers.items) >= maxCachedKeys {
		clear(s.issuers.items)
	}
	s.issuers.items[projectID] = it
	s.issuers.mu.Unlock()
	return it, nil
}

// profile is the project's validation profile.
func (it *issuer) profile() model.ValidationProfile {
	if it.project.ValidationProfile == "" {
		return model.ProfileNRS
	}
	return it.project.ValidationProfile
}

// configured fails unless the project can issue invoices.
func (it *issuer) configured() error {
	if !it.project.Configured || it.authority == nil || it.publicKey == nil || it.project.ServiceID == "" {
		return model.Errorf(model.CodeAuthorityNotConfigured,
			"this project's tax authority settings are not configured; set them with PUT /api/v2/projects/%s/authority", it.project.ID)
	}
	return nil
}
