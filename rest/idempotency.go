package rest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/service"
)

// ReplayedHeader marks a response replayed from an earlier request made
// with the same Idempotency-Key.
const ReplayedHeader = "Idempotent-Replayed"

// maxStoredBody bounds a response kept for replay; a larger one releases the
// key, so that a retry runs again.
const maxStoredBody = 8 << 20

// replayedHeaders are the response headers kept with a stored response.
var replayedHeaders = []string{"Content-Type", "Content-Disposition", "Content-Language", "Cache-Control", "Location", "Vary"}

// idempotent makes POST requests carrying an Idempotency-Key safe to retry:
// the first response is stored per credential for 24 h and replayed to
// retries (marked Idempotent-Replayed: true), a retry with another method,
// path or body is a 422 idempotency_key_reuse, and a retry while the first
// is still running is a 409. It runs after authentication, which puts the
// credential in the context.
func (a *api) idempotent(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, sent := r.Header[service.IdempotencyHeader]
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
		req := service.IdempotentRequest{Credential: credential, Key: key[0], Method: r.Method, Target: r.URL.RequestURI(), Body: body}
		stored, err := a.svc.BeginIdempotent(r.Context(), req)
		if err != nil {
			if model.ErrorCodeOf(err) == model.CodeConflict {
				w.Header().Set("Retry-After", "1") // the first request is still running
			}
			a.writeError(w, r, err)
			return
		}
		if stored != nil {
			replay(w, stored)
			return
		}
		rec := &recorder{ResponseWriter: w}
		finished := false
		defer func() {
			// Store the response, or release the key on a server error, a
			// response too large to keep or a panic (then recoverer answers).
			var resp *service.StoredResponse
			if finished && !rec.overflow {
				resp = &service.StoredResponse{Status: rec.statusCode(), Header: rec.kept, Body: rec.body.Bytes()}
			}
			ctx := context.WithoutCancel(r.Context())
			if err := a.svc.FinishIdempotent(ctx, req, resp); err != nil {
				a.log.Error("store idempotent response", "request_id", requestID(r.Context()), "error", err)
			}
		}()
		next.ServeHTTP(rec, r)
		finished = true
	})
}

// credentialOf names who owns the request's idempotency keys: the API key
// or the portal user.
func credentialOf(r *http.Request) string {
	if k := keyFrom(r); k != nil {
		return service.KeyCredential(k.KeyID)
	}
	if u := userFrom(r); u != nil {
		return service.UserCredential(u.UserID)
	}
	return ""
}

func replay(w http.ResponseWriter, s *service.StoredResponse) {
	h := w.Header()
	for k, v := range s.Header {
		h.Set(k, v)
	}
	h.Set(ReplayedHeader, "true")
	h.Set("Content-Length", strconv.Itoa(len(s.Body)))
	w.WriteHeader(s.Status)
	_, _ = w.Write(s.Body)
}

// recorder passes a response through while keeping a copy for replay.
type recorder struct {
	http.ResponseWriter
	status   int
	kept     map[string]string
	body     bytes.Buffer
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
	if !w.overflow {
		if w.body.Len()+len(b) > maxStoredBody {
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
