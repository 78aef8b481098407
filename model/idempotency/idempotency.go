// Package idempotency keeps the responses of requests made under an
// Idempotency-Key, per credential, and replays them to that credential's
// retries: the first response (status, headers, body, sealed like every
// secret at rest) for 24 hours, within the bounds of Limits.
package idempotency

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/model/store"
)

// TTL is how long a response stored under an Idempotency-Key is
// replayed.
const TTL = 24 * time.Hour

// DefaultLease is how long a claim stays in flight without its holder
// renewing it (Claim.Hold renews it every third of it while the request
// runs). A claim whose holder died, or could not release it, lapses after
// at most this long, and a retry of the same request takes it over.
const DefaultLease = 30 * time.Second

// MaxKeyLength bounds the Idempotency-Key header.
const MaxKeyLength = 255

// Header names the request header carrying the key.
const Header = "Idempotency-Key"

// KeyCredential names an API key as the owner of idempotency keys.
func KeyCredential(keyID uuid.UUID) string { return "key:" + keyID.String() }

// UserCredential names a portal user as the owner of idempotency keys.
func UserCredential(userID uuid.UUID) string { return "user:" + userID.String() }

// Request is a request made under an Idempotency-Key. Keys are
// scoped to one credential: two API keys may use the same key.
type Request struct {
	Credential string
	Key        string
	Method     string
	// Target is the path with its query string.
	Target string
	Body   []byte
}

// hash fingerprints what must be the same on a retry.
func (r Request) hash() []byte {
	h := sha256.New()
	h.Write([]byte(r.Method))
	h.Write([]byte{0})
	h.Write([]byte(r.Target))
	h.Write([]byte{0})
	h.Write([]byte(strconv.Itoa(len(r.Body))))
	h.Write([]byte{0})
	h.Write(r.Body)
	return h.Sum(nil)
}

// StoredResponse is a response kept for replay.
type StoredResponse struct {
	Status int
	// Header holds the replayed headers (content type and the like).
	Header map[string]string
	Body   []byte
	// Omitted says the body was not kept (larger than the response bound):
	// Body is nil, Size and SHA256 describe it.
	Omitted bool
	Size    int64
	SHA256  []byte
}

// Limits bound what Idempotency-Keys keep, so that no credential
// can turn the replay store into storage of its own. Zero fields take the
// defaults.
type Limits struct {
	// MaxResponseBytes bounds a response kept for replay; a larger one is
	// kept as its status, size and SHA-256 only. Default 256 KiB.
	MaxResponseBytes int
	// MaxBytesPerCredential bounds the bodies one credential keeps over a
	// day; past it, responses are kept as their size and hash only.
	// Default 64 MiB.
	MaxBytesPerCredential int64
	// MaxKeysPerCredential bounds the Idempotency-Keys one credential
	// claims over a day; past it a request with a new key is refused
	// (rate_limited) before it runs. Default 100,000.
	MaxKeysPerCredential int64
}

// Defaults of Limits.
const (
	DefaultMaxResponse  = 256 << 10
	DefaultMaxBytes     = 64 << 20
	DefaultMaxKeys      = 100_000
	QuotaRetryAfter     = time.Hour
	sealPurposePrefix   = "idempotency:"
	quotaRefusalMessage = "this credential already claimed %d Idempotency-Keys in the last 24 hours, the most allowed; retry after the time in Retry-After, or without an Idempotency-Key"
)

// Config configures New.
type Config struct {
	// Box seals stored responses. Required.
	Box *secret.Box
	// Limits bound what keys keep; zero fields take the defaults.
	Limits Limits
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Lease is how long a claim stays in flight unless renewed; default
	// DefaultLease.
	Lease time.Duration
}

// Service claims Idempotency-Keys and keeps their responses.
type Service struct {
	st  *store.Store
	cfg Config

	// unsettled holds the ends of claims (a response to store, or a
	// release) that could not be written, by credential and key, until
	// the database takes them or their lease lapses.
	mu        sync.Mutex
	unsettled map[string]*unsettled
	settling  bool
}

// New builds the service over st.
func New(st *store.Store, cfg Config) *Service {
	cfg.Limits.defaults()
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Lease <= 0 {
		cfg.Lease = DefaultLease
	}
	return &Service{st: st, cfg: cfg, unsettled: map[string]*unsettled{}}
}

func (l *Limits) defaults() {
	if l.MaxResponseBytes <= 0 {
		l.MaxResponseBytes = DefaultMaxResponse
	}
	if l.MaxBytesPerCredential <= 0 {
		l.MaxBytesPerCredential = DefaultMaxBytes
	}
	if l.MaxKeysPerCredential <= 0 {
		l.MaxKeysPerCredential = DefaultMaxKeys
	}
}

// MaxResponse is the largest response kept for replay; the
// transport stops buffering past it.
func (s *Service) MaxResponse() int { return s.cfg.Limits.MaxResponseBytes }

// ErrResponseNotKept marks the answer to a retry whose first response was
// kept as its size and hash only: it cannot be replayed, and the request
// is not run again.
var ErrResponseNotKept = errors.New("idempotent response not kept")

// sealPurpose binds a stored body to its credential and key.
func (r Request) sealPurpose() string {
	return sealPurposePrefix + r.Credential + ":" + r.Key
}

// ShouldStore tells which responses are kept: successes and client errors,
// except 409 and 429, which say "try again later". A server error releases
// the key instead, so that a retry runs again.
func ShouldStore(status int) bool {
	switch {
	case status >= 200 && status < 300:
		return true
	case status >= 400 && status < 500:
		return status != 409 && status != 429
	}
	return false
}

// CheckKey validates an Idempotency-Key header value: 1 to 255
// printable ASCII characters.
func CheckKey(key string) error {
	loc := []any{"header", Header}
	switch {
	case key == "":
		return model.Invalid(model.ProblemStringTooShort, "String should have at least 1 character", loc...)
	case len(key) > MaxKeyLength:
		return model.Invalid(model.ProblemStringTooLong, "String should have at most 255 characters", loc...)
	}
	for i := 0; i < len(key); i++ {
		if key[i] < 0x20 || key[i] > 0x7e {
			return model.Invalid(model.ProblemStringPatternMismatch, "String should hold printable ASCII characters only", loc...)
		}
	}
	return nil
}

// Begin claims req's key. It returns nil when the caller is to run
// the request and then call Finish; a stored response to replay
// when the same request already ran; a conflict while it is still running;
// and an idempotency_key_reuse error when the key was used for another
// request.
func (s *Service) Begin(ctx context.Context, req Request) (*StoredResponse, error) {
	_, stored, err := s.Acquire(ctx, req)
	return stored, err
}

// Acquire is Begin returning the claim when the caller is to run the
// request: the caller holds it (Claim.Hold) while the request runs and
// ends it with Claim.Finish. A claim of the same key whose end this
// process could not write (the database failed) is settled first.
func (s *Service) Acquire(ctx context.Context, req Request) (*Claim, *StoredResponse, error) {
	if err := CheckKey(req.Key); err != nil {
		return nil, nil, err
	}
	if err := s.settle(ctx, req.Credential, req.Key); err != nil {
		return nil, nil, err
	}
	now := model.StoredTime(s.cfg.Now())
	rec := &store.IdempotencyRecord{
		Credential: req.Credential, Key: req.Key, RequestHash: req.hash(),
		CreatedAt: now, LockedUntil: now.Add(s.cfg.Lease), ExpiresAt: now.Add(TTL),
	}
	admit := func(ctx context.Context) error {
		u, err := s.st.Idempotency().UsageOf(ctx, req.Credential, now)
		if err != nil {
			return err
		}
		if u.Entries >= s.cfg.Limits.MaxKeysPerCredential {
			e := model.Errorf(model.CodeRateLimited, quotaRefusalMessage, u.Entries)
			e.RetryAfter = QuotaRetryAfter
			return e
		}
		return nil
	}
	got, claimed, err := s.st.Idempotency().Claim(ctx, rec, now, admit)
	if err != nil {
		return nil, nil, err
	}
	if claimed {
		return &Claim{s: s, req: req, at: got.CreatedAt}, nil, nil
	}
	if subtle.ConstantTimeCompare(got.RequestHash, rec.RequestHash) != 1 {
		return nil, nil, &model.Error{Code: model.CodeIdempotencyKeyReuse,
			Message: "this Idempotency-Key was already used for another request",
			Fields: []model.FieldError{{Loc: []any{"header", Header},
				Msg: "Idempotency-Key was already used with another method, path or body", Type: model.ProblemIdempotencyKeyMismatch}}}
	}
	if got.State != store.IdempotencyDone {
		return nil, nil, model.Errorf(model.CodeConflict, "a request with this Idempotency-Key is still in progress; retry later")
	}
	if !got.BodyKept {
		return nil, nil, model.Wrap(model.CodeConflict, ErrResponseNotKept,
			"the first request with this Idempotency-Key answered %d with %d bytes (SHA-256 %s), more than is kept for replay; "+
				"it is not run again: send a new Idempotency-Key to run it again", got.Status, got.BodySize, hex.EncodeToString(got.BodySHA256))
	}
	body, err := s.cfg.Box.Open(got.Body, req.sealPurpose())
	if err != nil {
		return nil, nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	out := &StoredResponse{Status: got.Status, Body: body, Size: got.BodySize, SHA256: got.BodySHA256}
	if err := json.Unmarshal([]byte(got.Header), &out.Header); err != nil {
		return nil, nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	return nil, out, nil
}

// Finish stores the response of a request Begin let
// run, or releases its key when the response is not one to keep (see
// ShouldStore) or resp is nil.
func (s *Service) Finish(ctx context.Context, req Request, resp *StoredResponse) error {
	return s.finish(ctx, req, time.Time{}, resp)
}

// finish is Finish of the claim made at claimedAt (zero: of whichever
// claim of req is in flight).
func (s *Service) finish(ctx context.Context, req Request, claimedAt time.Time, resp *StoredResponse) error {
	if resp == nil || !ShouldStore(resp.Status) {
		rec := &store.IdempotencyRecord{Credential: req.Credential, Key: req.Key, RequestHash: req.hash(), CreatedAt: claimedAt}
		return s.st.Idempotency().Release(ctx, rec)
	}
	_, err := s.complete(ctx, s.st, req, claimedAt, resp)
	return err
}

// complete stores resp, one to keep, as the response of the claim of req
// made at claimedAt (zero: of whichever claim is in flight), through st
// (the service's store or a transaction), and reports whether the claim
// was still in flight to take it.
func (s *Service) complete(ctx context.Context, st *store.Store, req Request, claimedAt time.Time, resp *StoredResponse) (bool, error) {
	rec := &store.IdempotencyRecord{Credential: req.Credential, Key: req.Key, RequestHash: req.hash(), CreatedAt: claimedAt}
	header, err := json.Marshal(resp.Header)
	if err != nil {
		return false, model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	rec.Status, rec.Header, rec.LockedUntil = resp.Status, string(header), model.StoredTime(s.cfg.Now())
	rec.Body, rec.BodyKept, rec.BodySize, rec.BodySHA256 = []byte{}, false, resp.Size, resp.SHA256
	if !resp.Omitted {
		sum := sha256.Sum256(resp.Body)
		rec.BodySize, rec.BodySHA256 = int64(len(resp.Body)), sum[:]
		if len(resp.Body) <= s.cfg.Limits.MaxResponseBytes {
			keep, err := s.withinByteQuota(ctx, st, req.Credential, int64(len(resp.Body))+sealOverhead)
			if err != nil {
				return false, err
			}
			if keep {
				// Sealed like every secret at rest: responses carry client
				// secrets, access tokens and invoices.
				sealed, err := s.cfg.Box.Seal(resp.Body, req.sealPurpose())
				if err != nil {
					return false, model.Wrap(model.CodeInternal, err, "Internal Server Error")
				}
				rec.Body, rec.BodyKept = sealed, true
				if rec.Body == nil {
					rec.Body = []byte{}
				}
			}
		}
	}
	if rec.BodySHA256 == nil {
		rec.BodySHA256 = []byte{}
	}
	return st.Idempotency().Complete(ctx, rec)
}

// sealOverhead is what sealing adds to a body (AES-GCM nonce and tag).
const sealOverhead = 12 + 16

// withinByteQuota reports whether a body of size still fits the bytes the
// credential may keep over a day.
func (s *Service) withinByteQuota(ctx context.Context, st *store.Store, credential string, size int64) (bool, error) {
	u, err := st.Idempotency().UsageOf(ctx, credential, model.StoredTime(s.cfg.Now()))
	if err != nil {
		return false, err
	}
	return u.Bytes+size <= s.cfg.Limits.MaxBytesPerCredential, nil
}

// Purge deletes expired idempotency records and returns how
// many.
func (s *Service) Purge(ctx context.Context) (int64, error) {
	return s.st.Idempotency().Purge(ctx, model.StoredTime(s.cfg.Now()))
}
