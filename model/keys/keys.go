// Package keys holds the API keys of projects: creating, listing, rotating
// and revoking them (owners and admins of the project's organization), and
// authenticating a client id and secret, which costs one keyed hash
// against an entry re-read at most every CacheTTL.
//
// A secret is random (40 base62 characters), shown once, and stored only as
// HMAC-SHA-256 under the server's pepper.
package keys

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/access"
	"github.com/einvoice-ng/einvoice/model/events"
	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Config configures New.
type Config struct {
	// Hasher hashes secrets with the server pepper. Required.
	Hasher *secret.Hasher
	// Trail records key changes in the audit log.
	Trail access.Trail
	// Quota bounds a project's active keys (negative: none).
	Quota int
	// CacheTTL bounds how long an authenticated key is trusted without
	// reading the database again, hence how late a revocation made by
	// another process is seen; default 1 s.
	CacheTTL time.Duration
	// Pending tells a key's last use not written yet (usage.Service).
	Pending interface {
		LastUsed(keyID uuid.UUID) (time.Time, bool)
	}
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// Service holds the API keys.
type Service struct {
	st    *store.Store
	cfg   Config
	trail access.Trail
	cache *keyCache
}

// New builds the service over st.
func New(st *store.Store, cfg Config) *Service {
	if cfg.CacheTTL <= 0 {
		cfg.CacheTTL = time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Service{st: st, cfg: cfg, trail: cfg.Trail, cache: newKeyCache(cfg.CacheTTL)}
}

func (s *Service) now() time.Time { return model.StoredTime(s.cfg.Now()) }

// Input creates an API key.
type Input struct {
	KeyName string   `json:"key_name" required:"true"`
	Scopes  []string `json:"scopes"`
}

// Validate records every problem and returns the scopes: all of them when
// Scopes is omitted (nil), none allowed when it is an empty list, which
// is refused (an explicit empty list never means everything).
func (in *Input) Validate(p *model.Problems) model.Scopes {
	in.KeyName = strings.TrimSpace(in.KeyName)
	p.CheckText(in.KeyName, model.KeyNameLength, "key_name")
	names := model.ScopeNames()
	if in.Scopes == nil {
		return append(model.Scopes(nil), model.AllScopes...)
	}
	if len(in.Scopes) == 0 {
		p.Add(model.ProblemValueError, "List should name at least one scope, from: "+strings.Join(names, ", ")+"; omit scopes for every scope", "scopes")
		return nil
	}
	var out model.Scopes
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

func view(k *model.APIKey) View {
	v := View{
		ID: k.ID, ProjectID: k.ProjectID, KeyName: k.KeyName, ClientID: k.ClientID, SecretLast4: k.SecretLast4,
		Scopes: model.ParseScopes(k.Scopes), Status: k.Status, CreatedAt: k.CreatedAt.UTC(),
		LastUsedAt: model.UTC(k.LastUsedAt), RotatedAt: model.UTC(k.RotatedAt), RevokedAt: model.UTC(k.RevokedAt),
	}
	if v.Scopes == nil {
		v.Scopes = []model.Scope{}
	}
	return v
}

// Create creates an API key for one of the caller's projects. The secret
// is in the answer and nowhere else. Under an Idempotency-Key, the answer
// (sealed) is kept in the key's own commit (Store.KeepAnswer): a retry is
// answered this key and its secret whatever happens to this process from
// here on, and never creates a second one.
func (s *Service) Create(ctx context.Context, who *model.Principal, projectID uuid.UUID, in Input) (*WithSecret, error) {
	var p model.Problems
	scopes := in.Validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	var out *WithSecret
	err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		pr, err := access.Project(ctx, tx, who, projectID, access.Write)
		if err != nil {
			return err
		}
		if err := access.Quota(ctx, s.cfg.Quota, pr.ID, tx.Projects().Lock, tx.Keys().CountActive, "active API keys per project", "revoke a key you no longer use"); err != nil {
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
			ID: model.NewID(), ProjectID: pr.ID, KeyName: in.KeyName, ClientID: "ck_" + string(pr.Environment) + "_" + r,
			SecretHash: s.cfg.Hasher.Hash(sec), SecretLast4: sec[len(sec)-4:], Scopes: scopes.String(),
			Status: model.KeyActive, CreatedAt: s.now(),
		}
		if err := tx.Keys().Create(ctx, k); err != nil {
			return err
		}
		out = &WithSecret{View: view(k), ClientSecret: sec}
		if err := events.Append(ctx, tx, source(pr), model.EventAPIKeyCreated, out.View, k.CreatedAt); err != nil {
			return err
		}
		if err := s.trail.Record(ctx, tx, &pr.OrganizationID, who.Actor(), model.ActionKeyCreate, "api_key", k.ID.String()); err != nil {
			return err
		}
		_, err = tx.KeepAnswer(ctx, out)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// List lists a project's keys without secrets.
func (s *Service) List(ctx context.Context, who *model.Principal, projectID uuid.UUID, in model.PageInput) (*model.List[View], error) {
	page, err := access.ProjectPage(ctx, s.st, who, projectID, in)
	if err != nil {
		return nil, err
	}
	rows, more, err := s.st.Keys().List(ctx, projectID, page)
	if err != nil {
		return nil, err
	}
	return model.ListOf(rows, more, keyID, s.pendingView), nil
}

// pendingView is the view of a key with a last use still buffered in
// memory.
func (s *Service) pendingView(k *model.APIKey) View {
	v := view(k)
	if at, ok := s.cfg.Pending.LastUsed(v.ID); ok && (v.LastUsedAt == nil || at.After(*v.LastUsedAt)) {
		at = at.UTC()
		v.LastUsedAt = &at
	}
	return v
}

// MaxGraceSeconds bounds a rotation's grace period (7 days).
const MaxGraceSeconds = 604800

// Rotate gives a key a new secret. The old secret keeps working for
// graceSeconds (0: it stops at once). Under an Idempotency-Key, the answer
// is kept in the rotation's own commit, as Create keeps its: a retry is
// answered this secret and never rotates the key again.
func (s *Service) Rotate(ctx context.Context, who *model.Principal, projectID, keyID uuid.UUID, graceSeconds int) (*WithSecret, error) {
	if graceSeconds < 0 || graceSeconds > MaxGraceSeconds {
		return nil, model.Invalid(model.ProblemValueError, "Input should be between 0 and 604800", "grace_seconds")
	}
	var out *WithSecret
	var clientID string
	err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		pr, k, err := keyOf(ctx, tx, who, projectID, keyID)
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
		out = &WithSecret{View: s.pendingView(k), ClientSecret: sec}
		if err := events.Append(ctx, tx, source(pr), model.EventAPIKeyRotated, out.View, now); err != nil {
			return err
		}
		if err := s.trail.Record(ctx, tx, &pr.OrganizationID, who.Actor(), model.ActionKeyRotate, "api_key", k.ID.String()); err != nil {
			return err
		}
		_, err = tx.KeepAnswer(ctx, out)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.cache.forget(clientID)
	return out, nil
}

// Revoke revokes a key at once. Revoking a revoked key answers the same.
func (s *Service) Revoke(ctx context.Context, who *model.Principal, projectID, keyID uuid.UUID) (*Revoked, error) {
	var out *Revoked
	var clientID string
	err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		pr, k, err := keyOf(ctx, tx, who, projectID, keyID)
		if err != nil {
			return err
		}
		clientID = k.ClientID
		if k.Status == model.KeyRevoked && k.RevokedAt != nil {
			out = &Revoked{ID: k.ID, Status: k.Status, RevokedAt: k.RevokedAt.UTC()}
			return nil
		}
		now := s.now()
		k.Status, k.RevokedAt = model.KeyRevoked, &now
		if err := tx.Keys().Revoke(ctx, k); err != nil {
			return err
		}
		out = &Revoked{ID: k.ID, Status: k.Status, RevokedAt: now}
		if err := events.Append(ctx, tx, source(pr), model.EventAPIKeyRevoked, s.pendingView(k), now); err != nil {
			return err
		}
		return s.trail.Record(ctx, tx, &pr.OrganizationID, who.Actor(), model.ActionKeyRevoke, "api_key", k.ID.String())
	})
	if err != nil {
		return nil, err
	}
	s.cache.forget(clientID)
	return out, nil
}

// source is the project a key's events belong to.
func source(pr *model.Project) events.Source {
	return events.Source{ProjectID: pr.ID, OrganizationID: pr.OrganizationID}
}

// keyOf loads a key of a project who may change (an owner or admin of its
// organization).
func keyOf(ctx context.Context, tx *store.Store, who *model.Principal, projectID, keyID uuid.UUID) (*model.Project, *model.APIKey, error) {
	pr, err := access.Project(ctx, tx, who, projectID, access.Write)
	if err != nil {
		return nil, nil, err
	}
	k, err := tx.Keys().Get(ctx, pr.ID, keyID)
	return pr, k, err
}

// ByProject lists one page of keys (without secrets) of each project in
// projectIDs, by project id, for GraphQL dataloaders. Every id gets a list;
// one that is not the caller's gets an empty list.
func (s *Service) ByProject(ctx context.Context, who *model.Principal, projectIDs []uuid.UUID, in model.PageInput) (map[uuid.UUID]*model.List[View], error) {
	page, err := in.Page()
	if err != nil {
		return nil, err
	}
	rows, err := s.st.Keys().ListForProjects(ctx, who.UserID, projectIDs, page)
	if err != nil {
		return nil, err
	}
	return model.Lists(projectIDs, rows, page.Limit, func(r *model.APIKey) uuid.UUID { return r.ProjectID }, keyID, s.pendingView), nil
}

func keyID(k *model.APIKey) uuid.UUID { return k.ID }

// View is an API key without its secret.
type View struct {
	ID          uuid.UUID       `json:"id"`
	ProjectID   uuid.UUID       `json:"project_id"`
	KeyName     string          `json:"key_name"`
	ClientID    string          `json:"client_id"`
	SecretLast4 string          `json:"secret_last4"`
	Scopes      []model.Scope   `json:"scopes"`
	Status      model.KeyStatus `json:"status"`
	CreatedAt   time.Time       `json:"created_at"`
	LastUsedAt  *time.Time      `json:"last_used_at"`
	RotatedAt   *time.Time      `json:"rotated_at,omitempty"`
	RevokedAt   *time.Time      `json:"revoked_at,omitempty"`
}

// WithSecret is a key as answered by create and rotate: the only time the
// secret is ever shown.
type WithSecret struct {
	View
	ClientSecret string `json:"client_secret"`
}

// Revoked answers a revocation.
type Revoked struct {
	ID        uuid.UUID       `json:"id"`
	Status    model.KeyStatus `json:"status"`
	RevokedAt time.Time       `json:"revoked_at"`
}
