// Package service holds einvoice's use cases. REST handlers, GraphQL
// resolvers and Temporal activities all call these methods, so authorization,
// validation and persistence rules live here once.
package service

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Config holds the service's secrets and tunables.
type Config struct {
	// JWTSecret signs portal access tokens (HS256).
	JWTSecret []byte
	// TokenTTL is the lifetime of an access token; default 1 h.
	TokenTTL time.Duration
	// Box seals secrets at rest.
	Box *secret.Box
	// Hasher hashes API key secrets with the server pepper.
	Hasher *secret.Hasher
	// Authorities is the registry of tax authorities.
	Authorities model.Authorities
	// SandboxKeys makes the key pair and certificate of a new sandbox
	// project; default: a fresh RSA-2048 pair.
	SandboxKeys func() (SandboxKeys, error)
	// PasswordParams are the argon2id costs; default secret.DefaultPasswordParams.
	PasswordParams secret.PasswordParams
	// Auth limits signup and login attempts per client address and per
	// e-mail, and bounds concurrent password hashing.
	Auth AuthLimits
	// RevocationCacheTTL bounds how long this process trusts its copy of
	// the revoked access tokens before reading the new ones, hence how late
	// a logout made through another process is seen; default 1 s.
	RevocationCacheTTL time.Duration
	// KeyCacheTTL bounds how long an authenticated key is trusted without
	// reading the database again, hence how late a revocation made by
	// another process is seen; default 1 s.
	KeyCacheTTL time.Duration
	// UsageFlushInterval is how often buffered usage is written; default 2 s.
	UsageFlushInterval time.Duration
	// SandboxBaseURL is where sandbox projects talk to the authority by
	// default (the NRS sandbox stand-in in development), and the only host
	// sandbox code lists are stored from.
	SandboxBaseURL string
	// ProductionBaseURL is the authority's production host, the only one
	// production code lists are stored from; default
	// DefaultProductionBaseURL.
	ProductionBaseURL string
	// CodeListPollInterval bounds how late this process sees code lists
	// another process refreshed; default 30 s.
	CodeListPollInterval time.Duration
	// SandboxRegistrar, when set, is told about every sandbox project once
	// it is committed (and again when its authority settings change), so
	// that the NRS sandbox stand-in accepts the project's credentials.
	SandboxRegistrar SandboxRegistrar
	// Runs starts and describes the workflows of certification runs; nil
	// makes the certification use cases answer unavailable.
	Runs RunStarter
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Logger receives background errors; default slog.Default().
	Logger *slog.Logger
}

// Service implements the use cases over one store.
type Service struct {
	store     *store.Store
	cfg       Config
	keys      *keyCache
	issuers   *issuerCache
	usage     *meter
	irns      issuedIRNs
	hashing   *hashGate
	revoked   *revocations
	codeLists *codeListKeeper
}

// New builds a Service, loads the stored code lists into the authorities
// and starts its background work (the usage flusher, the code list
// watcher); call Close to flush and stop it.
func New(st *store.Store, cfg Config) (*Service, error) {
	if len(cfg.JWTSecret) < 32 {
		return nil, errors.New("service: JWT secret must be at least 32 bytes")
	}
	if cfg.Box == nil || cfg.Hasher == nil {
		return nil, errors.New("service: an encryption box and a key hasher are required")
	}
	if cfg.TokenTTL <= 0 {
		cfg.TokenTTL = time.Hour
	}
	if cfg.KeyCacheTTL <= 0 {
		cfg.KeyCacheTTL = time.Second
	}
	if cfg.UsageFlushInterval <= 0 {
		cfg.UsageFlushInterval = 2 * time.Second
	}
	if cfg.RevocationCacheTTL <= 0 {
		cfg.RevocationCacheTTL = time.Second
	}
	cfg.Auth.defaults()
	if cfg.PasswordParams.Memory == 0 {
		cfg.PasswordParams = secret.DefaultPasswordParams
	}
	if cfg.SandboxKeys == nil {
		cfg.SandboxKeys = GenerateSandboxKeys
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Authorities == nil {
		cfg.Authorities = model.Authorities{}
	}
	if cfg.ProductionBaseURL == "" {
		cfg.ProductionBaseURL = DefaultProductionBaseURL
	}
	if cfg.CodeListPollInterval <= 0 {
		cfg.CodeListPollInterval = 30 * time.Second
	}
	s := &Service{store: st, cfg: cfg}
	s.keys = newKeyCache(cfg.KeyCacheTTL)
	s.issuers = newIssuerCache(cfg.KeyCacheTTL)
	s.usage = newMeter(st, cfg.UsageFlushInterval, cfg.Now, cfg.Logger)
	s.hashing = newHashGate(cfg.Auth)
	s.revoked = newRevocations(st, cfg.RevocationCacheTTL, cfg.Now)
	s.codeLists = newCodeListKeeper()
	s.codeLists.start(s, cfg.CodeListPollInterval)
	return s, nil
}

// Close flushes buffered usage and stops background work.
func (s *Service) Close(ctx context.Context) error {
	s.codeLists.close()
	return s.usage.close(ctx)
}

// Store exposes the store to packages wired beside the service (workers).
func (s *Service) Store() *store.Store { return s.store }

// Authorities returns the registry of tax authorities.
func (s *Service) Authorities() model.Authorities { return s.cfg.Authorities }

// now is the clock at the precision the databases keep (microseconds), so
// that an answer and a later read of the same object agree.
func (s *Service) now() time.Time { return s.cfg.Now().UTC().Truncate(time.Microsecond) }

// newID returns a UUIDv7: time-ordered, so id order is creation order.
func newID() uuid.UUID {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.New()
	}
	return id
}

// Health reports the state of each dependency.
func (s *Service) Health(ctx context.Context) map[string]string {
	checks := map[string]string{"database": "ok"}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := s.store.Ping(ctx); err != nil {
		checks["database"] = "unavailable"
	}
	return checks
}
