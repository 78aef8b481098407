package nrssandbox

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb"
)

// business is an authenticated caller.
type business = sandboxdb.Business

// secretHash is how API secrets are kept: hex SHA-256. Sandbox secrets are
// generated with 64 random characters, so a fast hash is enough.
func secretHash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// unknownHash stands in for the secret of an unknown key, so that a miss
// costs the same comparison as a hit.
var unknownHash = secretHash("nrssandbox: no such api key")

// authed wraps an endpoint that needs credentials: it finds the business of
// x-api-key and x-api-secret (MBS's 400 "unable to validate api key"
// otherwise), then applies the business's rate and concurrency limits.
func (h *Handler) authed(fn func(w http.ResponseWriter, r *http.Request, b *business) error) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		b, release, err := h.authenticate(r)
		if err != nil {
			return err
		}
		defer release()
		return fn(w, r, b)
	}
}

// authenticate checks the request's credentials and takes a place among the
// business's requests in flight; call release when done.
func (h *Handler) authenticate(r *http.Request) (b *business, release func(), err error) {
	now := h.now()
	b, faults, err := h.credentialed(r, now)
	if err != nil {
		return nil, nil, err
	}
	if err := h.applyFaults(b, endpointOf(r), faults, now); err != nil {
		return nil, nil, err
	}
	release, err = h.admit(b)
	if err != nil {
		return nil, nil, err
	}
	return b, release, nil
}

// businessOf finds the business of the request's x-api-key and
// x-api-secret, or api-key and api-secret (MBS's 400 "unable to validate api key" otherwise).
func (h *Handler) businessOf(r *http.Request) (*business, error) {
	b, _, err := h.credentialed(r, h.now())
	return b, err
}

// credentialed is businessOf, with the business's faults in force at now
// read by the same statement.
func (h *Handler) credentialed(r *http.Request, now time.Time) (b *business, faults []sandboxdb.Fault, err error) {
	key, secret := credentials(r)
	if key == "" || secret == "" || len(key) > 512 || len(secret) > 512 {
		return nil, nil, errBadKey
	}
	b, faults, err = h.keys.lookup(r.Context(), h.db, key, now)
	want := unknownHash
	switch {
	case err == nil:
		want = b.APISecretHash
	case errors.Is(err, sandboxdb.ErrNotFound):
	default:
		return nil, nil, err
	}
	got := secretHash(secret)
	if subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 || b == nil {
		return nil, nil, errBadKey
	}
	return b, faults, nil
}

// credentials reads the API key and secret: x-api-key and x-api-secret as
// NRS documents them, or api-key and api-secret as one integration sends
// them (integrator-evidence.md E6). A request must use one pair, not mix.
func credentials(r *http.Request) (key, secret string) {
	key, secret = r.Header.Get("x-api-key"), r.Header.Get("x-api-secret")
	if key == "" && secret == "" {
		key, secret = r.Header.Get("api-key"), r.Header.Get("api-secret")
	}
	return key, secret
}

// admit applies the business's rate and concurrency limits.
func (h *Handler) admit(b *business) (release func(), err error) {
	if wait, allowed := h.limits.allowBusiness(b.BusinessID, h.opts.Now()); !allowed {
		return nil, tooMany("this business sends requests faster than the sandbox's limit of "+h.opts.BusinessRate.String(), wait)
	}
	release, entered := h.limits.enter(b.BusinessID)
	if !entered {
		return nil, tooMany("this business has "+strconv.Itoa(h.opts.MaxConcurrent)+" requests in flight, the sandbox's limit", 0)
	}
	return release, nil
}

// admin guards an admin endpoint with the admin token. Without a token
// configured the endpoints do not exist.
func (h *Handler) admin(fn handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		if h.opts.AdminToken == "" {
			writeNoRoute(w, r)
			return nil
		}
		got, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		a, b := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(h.opts.AdminToken))
		if !found || subtle.ConstantTimeCompare(a[:], b[:]) != 1 {
			return &apiError{status: http.StatusUnauthorized, public: "invalid admin token",
				details: "send Authorization: Bearer <admin token>"}
		}
		return fn(w, r)
	}
}

// readBody reads a bounded request body.
func (h *Handler) readBody(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, h.opts.MaxBodyBytes+1))
	if err != nil {
		return nil, invalid("the request body could not be read")
	}
	if int64(len(body)) > h.opts.MaxBodyBytes {
		return nil, &apiError{status: http.StatusRequestEntityTooLarge, public: MsgValidationFailed,
			details: "the request body is larger than " + strconv.FormatInt(h.opts.MaxBodyBytes, 10) + " bytes"}
	}
	return body, nil
}

// decodeBody reads a JSON object body into v, numbers as json.Number, and
// returns the body as sent.
func (h *Handler) decodeBody(r *http.Request, v any) ([]byte, error) {
	body, err := h.readBody(r)
	if err != nil {
		return nil, err
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, invalid("the request body must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return nil, invalid("the request body is not valid JSON: %s", jsonProblem(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, invalid("the request body must hold one JSON object")
	}
	return body, nil
}

// jsonProblem says what is wrong with a body without echoing it.
func jsonProblem(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return "syntax error at byte " + strconv.FormatInt(syn.Offset, 10)
	case errors.As(err, &typ):
		return typ.Field + " must be " + typ.Type.String()
	}
	return "unexpected end of input"
}
