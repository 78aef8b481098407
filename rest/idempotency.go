package rest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"hash"
	"io"
	"net/http"
	"strconv"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/idempotency"
)

// ReplayedHeader marks a response replayed from an earlier request made
// with the same Idempotency-Key.
const ReplayedHeader = "Idempotent-Replayed"

// replayedHeaders are the response headers kept with a stored response.
var replayedHeaders = []string{"Content-Type", "Content-Disposition", "Content-Language", "Cache-Control", "Location", "Vary"}

// idempotent makes POST requests carrying an Idempotency-Key safe to retry:
// the first response is stored (sealed) per credential for 24 h and
// replayed to retries (marked Idempotent-Replayed: true), a retry with
// another method, path or body is a 422 idempotency_key_reuse, and a retry
// while the first is still running is a 409 with Retry-After. A response
// larger than the replay bound (or past the credential's byte quota) is
// kept as its size and hash: a retry is a 409 without Retry-After, and the
// request is not run again. A credential past its quota of keys gets 429
// before its request runs. It runs after authentication, which puts the
// credential in the context.
//
// A claim is held on a lease (idempotency.DefaultLease, 30 s) renewed while
// the request runs. When its end cannot be written (the database failed),
// this process writes it again until it can: a retry reaching this process
// writes it first, and another process's retry gets 409 meanwhile. A
// holder that died leaves the claim to lapse at the end of its lease;
// then a retry of the same request runs it again, unless the request's
// use case kept its answer in the transaction of its effect
// (Store.KeepAnswer: a certification run start, an API key create or
// rotate and a webhook endpoint create or secret rotation do), which the
// retry is then answered, or recorded that effect under the claim (a GraphQL
// startCertificationRun, through idempotency.Claim.BindEffect), which
// the retry then answers with instead of committing it again.
func (a *api) idempotent(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, sent := r.Header[idempotency.Header]
		if !sent || r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		credential := credentialOf(r)
		if credential == "" {
			next.ServeHTTP(w, r)
			return
		}
		body, err := readBody(r)
		if err != nil {
			a.writeError(w, r, err)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		req := idempotency.Request{Credential: credential, Key: key[0], Method: r.Method, Target: r.URL.RequestURI(), Body: body}
		claim, stored, err := a.app.Idempotency.Acquire(r.Context(), req)
		if err != nil {
			switch {
			case errors.Is(err, idempotency.ErrResponseNotKept):
				// Final: the first response is gone, retrying cannot help.
			case model.ErrorCodeOf(err) == model.CodeConflict:
				w.Header().Set("Retry-After", "1") // the first request is still running
			}
			a.writeError(w, r, err)
			return
		}
		if stored != nil {
			replay(w, stored)
			return
		}
		rec := &recorder{ResponseWriter: w, limit: a.app.Idempotency.MaxResponse(), hash: sha256.New()}
		// The claim is renewed while the request runs; lost (the database
		// unreachable for most of a lease), the request's context ends.
		held, release := claim.Hold(r.Context())
		finished, dead := false, false
		defer func() {
			release()
			if dead {
				return
			}
			// Store the response (or, past the bound, its size and hash),
			// or release the key on a server error or a panic (then
			// recoverer answers). When the database cannot take it, the
			// claim keeps it and writes it again until it can, or the
			// lease lapses.
			var resp *idempotency.StoredResponse
			if finished {
				resp = &idempotency.StoredResponse{Status: rec.statusCode(), Header: rec.kept, Body: rec.body.Bytes(),
					Omitted: rec.overflow, Size: rec.size, SHA256: rec.hash.Sum(nil)}
				if rec.overflow {
					resp.Body = nil
				}
			}
			ctx := context.WithoutCancel(r.Context())
			if err := claim.Finish(ctx, resp); err != nil {
				a.log.Warn("store idempotent response", "request_id", requestID(r.Context()), "error", err)
			}
		}()
		held = context.WithValue(held, claimKey{}, &heldClaim{claim: claim, header: rec.Header()})
		// GraphQL resolvers record their effects under the claim
		// (idempotency.ClaimFrom).
		held = idempotency.WithClaim(held, claim)
		next.ServeHTTP(rec, r.WithContext(held))
		finished = true
		// A process that dies here neither renews nor ends the claim.
		dead = dies != nil && dies(r)
	})
}

// claimKey carries the request's claim to its handler.
type claimKey struct{}

type heldClaim struct {
	claim  *idempotency.Claim
	header http.Header
}

// answerInTx returns r's context with the request's Idempotency-Key claim,
// if any, bound to the answer reply gives a use case's result (200 with
// the result as JSON): a use case whose effect must not run twice keeps
// that answer in the transaction of its effect (Store.KeepAnswer). Only
// handlers answering with reply use it.
func answerInTx(r *http.Request) context.Context {
	h, _ := r.Context().Value(claimKey{}).(*heldClaim)
	if h == nil {
		return r.Context()
	}
	return h.claim.Bind(r.Context(), func(out any) (*idempotency.StoredResponse, error) {
		return answerJSON(h.header, out)
	})
}

// dies, set by tests only, tells whether the process is to die after the
// request's handler answered, before its claim is ended.
var dies func(*http.Request) bool

// answerJSON is the response reply answers out with (200, out as JSON),
// with the replayed headers set so far, as the recorder would keep it.
func answerJSON(h http.Header, out any) (*idempotency.StoredResponse, error) {
	var body bytes.Buffer
	if err := encodeJSON(&body, out); err != nil {
		return nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	kept := map[string]string{"Content-Type": jsonContentType[0]}
	for _, name := range replayedHeaders {
		if v := h.Get(name); v != "" && name != "Content-Type" {
			kept[name] = v
		}
	}
	return &idempotency.StoredResponse{Status: http.StatusOK, Header: kept, Body: body.Bytes()}, nil
}

// credentialOf names who owns the request's idempotency keys: the API key
// or the portal user.
func credentialOf(r *http.Request) string {
	if k := keyFrom(r); k != nil {
		return idempotency.KeyCredential(k.KeyID)
	}
	if u := userFrom(r); u != nil {
		return idempotency.UserCredential(u.UserID)
	}
	return ""
}

func replay(w http.ResponseWriter, s *idempotency.StoredResponse) {
	h := w.Header()
	for k, v := range s.Header {
		h.Set(k, v)
	}
	h.Set(ReplayedHeader, "true")
	h.Set("Content-Length", strconv.Itoa(len(s.Body)))
	w.WriteHeader(s.Status)
	_, _ = w.Write(s.Body)
}

// recorder passes a response through while keeping a copy for replay, up
// to limit bytes; past it, only the size and hash.
type recorder struct {
	http.ResponseWriter
	status   int
	kept     map[string]string
	body     bytes.Buffer
	limit    int
	size     int64
	hash     hash.Hash
	overflow bool
}

func (w *recorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
		w.kept = map[string]string{}
		for _, name := range replayedHeaders {
			if v := w.Header().Get(name); v != "" {
				w.kept[name] = v
			}
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *recorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	w.size += int64(len(b))
	w.hash.Write(b)
	if !w.overflow {
		if w.body.Len()+len(b) > w.limit {
			w.overflow = true
			w.body = bytes.Buffer{}
		} else {
			w.body.Write(b)
		}
	}
	return w.ResponseWriter.Write(b)
}

func (w *recorder) statusCode() int {
	if w.status == 0 {
		return http.StatusOK
	}
	return w.status
}

func (w *recorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }
