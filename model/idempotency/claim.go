package idempotency

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

// ErrClaimLost is the cause of a held request's cancellation when its
// claim could not be renewed before its lease ran out (the database is
// unreachable) or was taken over: a retry may run the request meanwhile,
// so this one stops rather than commit after it.
var ErrClaimLost = errors.New("idempotency claim lost")

// Claim is an Idempotency-Key claimed by Acquire for one run of its
// request. Its creation time fences it: once another claim of the key
// took over (after the lease lapsed), Renew reports it lost and Finish
// writes nothing.
type Claim struct {
	s   *Service
	req Request
	at  time.Time

	// effects are those recorded under the claim when Effect first
	// read them.
	effectsMu sync.Mutex
	effects   map[string]string
}

func (c *Claim) record() *store.IdempotencyRecord {
	return &store.IdempotencyRecord{Credential: c.req.Credential, Key: c.req.Key, RequestHash: c.req.hash(), CreatedAt: c.at}
}

// Renew extends the claim's lease by a full lease from now. It returns
// ErrClaimLost when the claim is no longer this one's.
func (c *Claim) Renew(ctx context.Context) error {
	until := model.StoredTime(c.s.cfg.Now()).Add(c.s.cfg.Lease)
	held, err := c.s.st.Idempotency().Extend(ctx, c.record(), until)
	if err != nil {
		return err
	}
	if !held {
		return ErrClaimLost
	}
	return nil
}

// Hold renews the claim every third of its lease while the request runs,
// until stop is called. The returned context is ctx, cancelled with cause
// ErrClaimLost when the claim is lost: taken over, or not renewed for over
// half a lease (the database is unreachable: two renewals failed, with a
// third of the lease still to run), so that the request does not go on
// while a retry may run it again.
func (c *Claim) Hold(ctx context.Context) (held context.Context, stop func()) {
	held, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	stopped := make(chan struct{})
	lease := c.s.cfg.Lease
	go func() {
		defer close(stopped)
		t := time.NewTicker(lease / 3)
		defer t.Stop()
		renewed := time.Now() // monotonic: the lease runs from here
		for {
			select {
			case <-done:
				return
			case <-held.Done():
				return
			case <-t.C:
			}
			rctx, rcancel := context.WithTimeout(held, lease/3)
			err := c.Renew(rctx)
			rcancel()
			switch {
			case err == nil:
				renewed = time.Now()
			case errors.Is(err, ErrClaimLost), time.Since(renewed) > lease/2:
				// Taken over, or the next renewal would come too late to
				// be sure no retry took the claim meanwhile.
				cancel(ErrClaimLost)
				return
			}
		}
	}()
	return held, func() {
		close(done)
		<-stopped
		cancel(nil)
	}
}

// Finish stores the response of the claim's request, or releases the key
// when the response is not one to keep (see ShouldStore) or resp is nil,
// as Service.Finish does, for this claim only. When the database cannot
// take it, the end is kept and written again (by a retry of the same key
// in this process first, else in the background) until it is written or
// the claim's lease lapses; the error is returned all the same.
func (c *Claim) Finish(ctx context.Context, resp *StoredResponse) error {
	err := c.s.finish(ctx, c.req, c.at, resp)
	if err != nil && model.ErrorCodeOf(err) == model.CodeUnavailable {
		c.s.keepUnsettled(c, resp)
	}
	return err
}

// unsettled is the end of a claim not yet written.
type unsettled struct {
	claim *Claim
	resp  *StoredResponse
	// until is when the claim lapses by itself (by this process's clock,
	// monotonic): past it, a retry takes the key over anyway.
	until time.Time
}

func unsettledKey(credential, key string) string { return credential + "\x00" + key }

// keepUnsettled keeps the end of c to write later, and starts the
// background settler unless it runs.
func (s *Service) keepUnsettled(c *Claim, resp *StoredResponse) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.unsettled[unsettledKey(c.req.Credential, c.req.Key)] = &unsettled{claim: c, resp: resp, until: time.Now().Add(s.cfg.Lease)}
	if !s.settling {
		s.settling = true
		go s.settleLoop()
	}
}

// settle writes the unsettled end of a claim of credential's key, if this
// process holds one, before a new claim of the key: a retry then finds
// the first response stored, or the key free. Its error (the database is
// still unreachable) refuses the retry.
func (s *Service) settle(ctx context.Context, credential, key string) error {
	k := unsettledKey(credential, key)
	s.mu.Lock()
	u := s.unsettled[k]
	s.mu.Unlock()
	if u == nil {
		return nil
	}
	if err := s.finish(ctx, u.claim.req, u.claim.at, u.resp); err != nil && time.Now().Before(u.until) {
		return err
	}
	s.mu.Lock()
	if s.unsettled[k] == u {
		delete(s.unsettled, k)
	}
	s.mu.Unlock()
	return nil
}

// settleRetry bounds the wait between two attempts of the background
// settler.
const settleRetry = 2 * time.Second

// settleLoop writes the unsettled ends until none is left, dropping those
// whose claims lapsed.
func (s *Service) settleLoop() {
	wait := 100 * time.Millisecond
	for {
		time.Sleep(wait)
		wait = min(2*wait, settleRetry)
		s.mu.Lock()
		keys := make([]string, 0, len(s.unsettled))
		for k := range s.unsettled {
			keys = append(keys, k)
		}
		s.mu.Unlock()
		for _, k := range keys {
			s.mu.Lock()
			u := s.unsettled[k]
			s.mu.Unlock()
			if u == nil {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), settleRetry)
			err := s.finish(ctx, u.claim.req, u.claim.at, u.resp)
			cancel()
			if err == nil || !time.Now().Before(u.until) {
				s.mu.Lock()
				if s.unsettled[k] == u {
					delete(s.unsettled, k)
				}
				s.mu.Unlock()
			}
		}
		s.mu.Lock()
		if len(s.unsettled) == 0 {
			s.settling = false
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
	}
}

// bound is a claim with its transport's rendering of a result: the
// store.AnswerKeeper of the request run under the claim.
type bound struct {
	claim  *Claim
	render func(result any) (*StoredResponse, error)
}

// Bind returns ctx carrying the claim, with render, the transport's
// rendering of a use case's result as the response it answers with, as
// the context's store.AnswerKeeper: a use case that commits an effect (a
// certification run start) keeps its answer with Store.KeepAnswer in its
// transaction, so that the response commits with the effect.
func (c *Claim) Bind(ctx context.Context, render func(result any) (*StoredResponse, error)) context.Context {
	return store.WithAnswerKeeper(ctx, &bound{claim: c, render: render})
}

// KeepAnswer stores, in tx, the response the claim's request answers with
// result, and reports whether it did (not for a response ShouldStore does
// not keep). The caller then answers with result exactly as it is now. A
// retry is then answered the same whatever happens to this process
// afterwards, and never runs the request again. A claim taken over
// meanwhile (its lease lapsed and a retry claimed the key) fails with a
// conflict wrapping ErrClaimLost, so that the effect is not committed
// twice.
func (b *bound) KeepAnswer(ctx context.Context, tx *store.Store, result any) (bool, error) {
	resp, err := b.render(result)
	if err != nil {
		return false, err
	}
	if !ShouldStore(resp.Status) {
		return false, nil
	}
	c := b.claim
	held, err := c.s.complete(ctx, tx, c.req, c.at, resp)
	if err != nil {
		return false, err
	}
	if !held {
		return false, model.Wrap(model.CodeConflict, ErrClaimLost,
			"a retry with this Idempotency-Key took over this request; its answer is the retry's")
	}
	return true, nil
}

type claimKey struct{}

// WithClaim returns ctx carrying c, the claim of the request ctx serves:
// a transport whose answer depends on more than a use case's result (a
// GraphQL selection set) finds it with ClaimFrom and records the request's
// effects with Effect and BindEffect.
func WithClaim(ctx context.Context, c *Claim) context.Context {
	return context.WithValue(ctx, claimKey{}, c)
}

// ClaimFrom returns the claim WithClaim put in ctx, or nil when the request
// runs under no Idempotency-Key.
func ClaimFrom(ctx context.Context) *Claim {
	c, _ := ctx.Value(claimKey{}).(*Claim)
	return c
}

// Effect returns the effect an earlier run of the claim's request
// committed under slot (BindEffect), or "" when none did. An earlier run is
// one whose process died, or that ended in a server error, after that
// effect committed: the retry then answers with that effect instead of
// committing it again.
func (c *Claim) Effect(ctx context.Context, slot string) (string, error) {
	c.effectsMu.Lock()
	defer c.effectsMu.Unlock()
	if c.effects == nil {
		effects, err := c.s.st.Idempotency().Effects(ctx, c.record())
		if err != nil {
			return "", err
		}
		c.effects = effects
	}
	return c.effects[slot], nil
}

// effectKeeper records, as a store.AnswerKeeper, a use case's result as
// the effect of slot of the claim's request.
type effectKeeper struct {
	claim *Claim
	slot  string
	ref   func(result any) (string, error)
}

// BindEffect returns ctx carrying, as its store.AnswerKeeper, the record
// of the effect of slot, one part of the claim's request (a field of a
// GraphQL mutation): a use case that commits an effect (a certification
// run start) calls Store.KeepAnswer in its transaction, which records
// ref(result), the effect's reference (the run's id), under slot in the
// same commit. A retry after this process died then finds it with Effect.
// The answer itself is not kept: the transport answers as usual.
func (c *Claim) BindEffect(ctx context.Context, slot string, ref func(result any) (string, error)) context.Context {
	return store.WithAnswerKeeper(ctx, &effectKeeper{claim: c, slot: slot, ref: ref})
}

// KeepAnswer records the effect of result in tx and reports false: the
// answer is not kept. A claim taken over meanwhile fails with a conflict
// wrapping ErrClaimLost, so that the effect is not committed twice.
func (k *effectKeeper) KeepAnswer(ctx context.Context, tx *store.Store, result any) (bool, error) {
	ref, err := k.ref(result)
	if err != nil {
		return false, err
	}
	held, err := tx.Idempotency().KeepEffect(ctx, k.claim.record(), k.slot, ref)
	if err != nil {
		return false, err
	}
	if !held {
		return false, model.Wrap(model.CodeConflict, ErrClaimLost,
			"a retry with this Idempotency-Key took over this request; its answer is the retry's")
	}
	return false, nil
}

// BindSealedEffect is BindEffect for an effect whose answer holds a secret
// shown once (an API key's client secret), which a retry after this
// process died must answer with again: ref returns the effect's reference
// (the key's id) and the answer to give again, which is recorded sealed
// with the box that seals stored responses, bound to the claim's key and
// slot, never in clear. A retry finds both with SealedEffect.
func (c *Claim) BindSealedEffect(ctx context.Context, slot string, ref func(result any) (string, []byte, error)) context.Context {
	return c.BindEffect(ctx, slot, func(result any) (string, error) {
		id, answer, err := ref(result)
		if err != nil {
			return "", err
		}
		if id == "" || strings.Contains(id, " ") || len(answer) == 0 {
			return "", model.Errorf(model.CodeInternal, "Internal Server Error")
		}
		sealed, err := c.s.cfg.Box.Seal(answer, c.effectPurpose(slot))
		if err != nil {
			return "", model.Wrap(model.CodeInternal, err, "Internal Server Error")
		}
		return id + " " + base64.RawStdEncoding.EncodeToString(sealed), nil
	})
}

// SealedEffect returns the reference and the answer an earlier run of the
// claim's request recorded under slot with BindSealedEffect, or "" and nil
// when none did.
func (c *Claim) SealedEffect(ctx context.Context, slot string) (string, []byte, error) {
	v, err := c.Effect(ctx, slot)
	if err != nil || v == "" {
		return "", nil, err
	}
	id, enc, ok := strings.Cut(v, " ")
	sealed, err := base64.RawStdEncoding.DecodeString(enc)
	if !ok || err != nil {
		return "", nil, model.Errorf(model.CodeInternal, "Internal Server Error")
	}
	answer, err := c.s.cfg.Box.Open(sealed, c.effectPurpose(slot))
	if err != nil {
		return "", nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	return id, answer, nil
}

// effectPurpose binds a sealed effect to its claim's credential and key
// and to its slot.
func (c *Claim) effectPurpose(slot string) string {
	return c.req.sealPurpose() + "\x00effect:" + slot
}
