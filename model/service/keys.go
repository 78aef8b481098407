package service

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/model/store"
)

// KeyInput creates an API key.
type KeyInput struct {
	KeyName string   `json:"key_name" required:"true"`
	Scopes  []string `json:"scopes"`
}

// Validate records every problem and returns the scopes (all when none).
func (in *KeyInput) Validate(p *model.Problems) model.Scopes {
	in.KeyName = strings.TrimSpace(in.KeyName)
	p.CheckText(in.KeyName, model.KeyNameLength, "key_name")
	if len(in.Scopes) == 0 {
		return append(model.Scopes(nil), model.AllScopes...)
	}
	var out model.Scopes
	names := model.ScopeNames()
	for i, sc := range in.Scopes {
		if p.CheckEnum(sc, names, "scopes", i) && !out.Has(model.Scope(sc)) {
			out = append(out, model.Scope(sc))
		}
	}
	return out
}

const (
	clientIDRandom = 24
	secretRandom   = 40
)

func (s *Service) newSecret(env model.Environment) (string, error) {
	r, err := secret.Base62(secretRandom)
	if err != nil {
		return "", model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	return "cs_" + string(env) + "_" + r, nil
}

func keyView(k *model.APIKey) KeyView {
	v := KeyView{
		ID: k.ID, ProjectID: k.ProjectID, KeyName: k.KeyName, ClientID: k.ClientID, SecretLast4: k.SecretLast4,
		Scopes: model.ParseScopes(k.Scopes), Status: k.Status, CreatedAt: k.CreatedAt.UTC(),
		LastUsedAt: utcPtr(k.LastUsedAt), RotatedAt: utcPtr(k.RotatedAt), RevokedAt: utcPtr(k.RevokedAt),
	}
	if v.Scopes == nil {
		v.Scopes = []model.Scope{}
	}
	return v
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// projectForWriter loads a project of the caller and checks they may change it.
func (s *Service) projectForWriter(ctx context.Context, tx *store.Store, u *UserPrincipal, projectID uuid.UUID) (*model.Project, error) {
	pr, err := tx.Projects().Get(ctx, projectID, u.UserID)
	if err != nil {
		return nil, err
	}
	if err := s.requireWriter(ctx, tx, u, pr.OrganizationID); err != nil {
		return nil, err
	}
	return pr, nil
}

// CreateKey creates an API key for one of the caller's projects. The secret
// is in the answer and nowhere else.
func (s *Service) CreateKey(ctx context.Context, u *UserPrincipal, projectID uuid.UUID, in KeyInput) (*KeyWithSecret, error) {
	var p model.Problems
	scopes := in.Validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	var out *KeyWithSecret
	err := s.store.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		pr, err := s.projectForWriter(ctx, tx, u, projectID)
		if err != nil {
			return err
		}
		if err := s.checkKeyQuota(ctx, tx, pr.ID); err != nil {
			return err
		}
		r, err := secret.Base62(clientIDRandom)
		if err != nil {
			return model.Wrap(model.CodeInternal, err, "Internal Server Error")
		}
		sec, err := s.newSecret(pr.Environment)
		if err != nil {
			return err
		}
		k := &model.APIKey{
			ID: newID(), ProjectID: pr.ID, KeyName: in.KeyName, ClientID: "ck_" + string(pr.Environment) + "_" + r,
			SecretHash: s.cfg.Hasher.Hash(sec), SecretLast4: sec[len(sec)-4:], Scopes: scopes.String(),
			Status: model.KeyActive, CreatedAt: s.now(),
		}
		if err := tx.Keys().Create(ctx, k); err != nil {
			return err
		}
		out = &KeyWithSecret{KeyView: keyView(k), ClientSecret: sec}
		return s.audit(ctx, tx, &pr.OrganizationID, userActor(u.UserID), model.ActionKeyCreate, "api_key", k.ID.String())
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Keys lists a project's keys without secrets.
func (s *Service) Keys(ctx context.Context, u *UserPrincipal, projectID uuid.UUID, in PageInput) (*List[KeyView], error) {
	var p model.Problems
	page := in.validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	if _, err := s.store.Projects().Get(ctx, projectID, u.UserID); err != nil {
		return nil, err
	}
	rows, more, err := s.store.Keys().List(ctx, projectID, page)
	if err != nil {
		return nil, err
	}
	out := &List[KeyView]{Items: make([]KeyView, 0, len(rows))}
	for i := range rows {
		out.Items = append(out.Items, s.withPendingUse(keyView(&rows[i])))
	}
	if more {
		out.NextCursor = cursorFor(rows[len(rows)-1].ID)
	}
	return out, nil
}

// withPendingUse shows a last use still buffered in memory.
func (s *Service) withPendingUse(v KeyView) KeyView {
	if at, ok := s.usage.lastUsed(v.ID); ok && (v.LastUsedAt == nil || at.After(*v.LastUsedAt)) {
		at = at.UTC()
		v.LastUsedAt = &at
	}
	return v
}

// MaxGraceSeconds bounds a rotation's grace period (7 days).
const MaxGraceSeconds = 604800

// RotateKey gives a key a new secret. The old secret keeps working for
// graceSeconds (0: it stops at once).
func (s *Service) RotateKey(ctx context.Context, u *UserPrincipal, projectID, keyID uuid.UUID, graceSeconds int) (*KeyWithSecret, error) {
	if graceSeconds < 0 || graceSeconds > MaxGraceSeconds {
		return nil, model.Invalid(model.ProblemValueError, "Input should be between 0 and 604800", "grace_seconds")
	}
	var out *KeyWithSecret
	var clientID string
	err := s.store.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		pr, err := s.projectForWriter(ctx, tx, u, projectID)
		if err != nil {
			return err
		}
		k, err := tx.Keys().Get(ctx, pr.ID, keyID)
		if err != nil {
			return err
		}
		if k.Status != model.KeyActive {
			return model.Errorf(model.CodeConflict, "a revoked key cannot be rotated")
		}
		sec, err := s.newSecret(pr.Environment)
		if err != nil {
			return err
		}
		now := s.now()
		k.PrevSecretHash, k.PrevSecretExpiresAt = nil, nil
		if graceSeconds > 0 {
			exp := now.Add(time.Duration(graceSeconds) * time.Second)
			k.PrevSecretHash, k.PrevSecretExpiresAt = k.SecretHash, &exp
		}
		k.SecretHash, k.SecretLast4, k.RotatedAt = s.cfg.Hasher.Hash(sec), sec[len(sec)-4:], &now
		if err := tx.Keys().Rotate(ctx, k); err != nil {
			return err
		}
		clientID = k.ClientID
		out = &KeyWithSecret{KeyView: s.withPendingUse(keyView(k)), ClientSecret: sec}
		return s.audit(ctx, tx, &pr.OrganizationID, userActor(u.UserID), model.ActionKeyRotate, "api_key", k.ID.String())
	})
	if err != nil {
		return nil, err
	}
	s.keys.forget(clientID)
	return out, nil
}

// RevokeKey revokes a key at once. Revoking a revoked key answers the same.
func (s *Service) RevokeKey(ctx context.Context, u *UserPrincipal, projectID, keyID uuid.UUID) (*RevokedKey, error) {
	var out *RevokedKey
	var clientID string
	err := s.store.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		pr, err := s.projectForWriter(ctx, tx, u, projectID)
		if err != nil {
			return err
		}
		k, err := tx.Keys().Get(ctx, pr.ID, keyID)
		if err != nil {
			return err
		}
		clientID = k.ClientID
		if k.Status == model.KeyRevoked && k.RevokedAt != nil {
			out = &RevokedKey{ID: k.ID, Status: k.Status, RevokedAt: k.RevokedAt.UTC()}
			return nil
		}
		now := s.now()
		k.Status, k.RevokedAt = model.KeyRevoked, &now
		if err := tx.Keys().Revoke(ctx, k); err != nil {
			return err
		}
		out = &RevokedKey{ID: k.ID, Status: k.Status, RevokedAt: now}
		return s.audit(ctx, tx, &pr.OrganizationID, userActor(u.UserID), model.ActionKeyRevoke, "api_key", k.ID.String())
	})
	if err != nil {
		return nil, err
	}
	s.keys.forget(clientID)
	return out, nil
}
