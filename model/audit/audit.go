// Package audit is the audit log as its readers see it: the entries of the
// caller's organizations, newest first, and whether an organization's
// chain verifies. The entries themselves are appended by every use case
// that changes something, in the change's own transaction
// (access.Trail), so that the log and the change commit together.
package audit

import (
	"context"
	"sync"
	"time"

	"github.com/google/uuid"
	"golang.org/x/sync/singleflight"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/access"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Config configures New.
type Config struct {
	// Key keys the audit chain; required, at least 32 bytes.
	Key []byte
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// Service reads and verifies the audit log.
type Service struct {
	st     *store.Store
	cfg    Config
	checks checks // shares chain verifications between callers
}

// New builds the service over st.
func New(st *store.Store, cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Service{st: st, cfg: cfg, checks: checks{done: map[string]*ChainView{}}}
}

// Input filters an audit-log listing.
type Input struct {
	OrganizationID string
	Action         string
	model.PageInput
}

// View is one audit entry as clients see it.
type View struct {
	ID             uuid.UUID  `json:"id"`
	OrganizationID *uuid.UUID `json:"organization_id"`
	Actor          model.Ref  `json:"actor"`
	Action         string     `json:"action"`
	Target         model.Ref  `json:"target"`
	IP             string     `json:"ip"`
	UserAgent      string     `json:"user_agent"`
	RequestID      string     `json:"request_id"`
	CreatedAt      time.Time  `json:"created_at"`
	Hash           string     `json:"hash"`
	PrevHash       string     `json:"prev_hash"`
	// ActorEmail is the e-mail of a user actor who is a member of the
	// entry's organization; nil for any other actor.
	ActorEmail *string `json:"actor_email,omitempty"`
}

// actions are the actions a listing may filter on.
var actions = []string{
	model.ActionSignup, model.ActionLogin, model.ActionLoginFailed, model.ActionLogout, model.ActionOrganizationCreate,
	model.ActionProjectCreate, model.ActionProjectUpdate, model.ActionKeyCreate, model.ActionKeyRotate, model.ActionKeyRevoke,
	model.ActionAuthorityUpdate, model.ActionCertificationStart, model.ActionSessionReuse,
	model.ActionSandboxFaultSet, model.ActionSandboxFaultClear,
	model.ActionWebhookCreate, model.ActionWebhookUpdate, model.ActionWebhookDelete, model.ActionWebhookRotate,
	model.ActionWebhookTest, model.ActionWebhookDisable, model.ActionEventRedeliver,
}

// Actions lists the actions an audit listing may filter on.
func (s *Service) Actions() []string { return append([]string(nil), actions...) }

// List lists entries of the caller's organizations (or of one of them),
// newest first.
func (s *Service) List(ctx context.Context, who *model.Principal, in Input) (*model.List[View], error) {
	var p model.Problems
	page := in.Validate(&p)
	var orgID uuid.UUID
	if in.OrganizationID != "" {
		orgID = p.CheckUUID(in.OrganizationID, "organization_id")
	}
	if in.Action != "" {
		p.CheckEnum(in.Action, actions, "action")
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	var ids []uuid.UUID
	if orgID != uuid.Nil {
		if _, err := access.Organization(ctx, s.st, who, orgID, access.Read); err != nil {
			return nil, err
		}
		ids = []uuid.UUID{orgID}
	} else {
		var err error
		if ids, err = s.st.Organizations().IDs(ctx, who.UserID); err != nil {
			return nil, err
		}
	}
	rows, more, err := s.st.Audit().List(ctx, store.AuditFilter{OrganizationIDs: ids, Action: in.Action}, page)
	if err != nil {
		return nil, err
	}
	emails, err := s.actorEmails(ctx, rows)
	if err != nil {
		return nil, err
	}
	return model.ListOf(rows, more, func(r *model.AuditLog) uuid.UUID { return r.ID }, func(r *model.AuditLog) View {
		v := View{
			ID: r.ID, OrganizationID: r.OrganizationID, Actor: model.Ref{Type: r.ActorType, ID: r.ActorID},
			Action: r.Action, Target: model.Ref{Type: r.TargetType, ID: r.TargetID}, IP: r.IP, UserAgent: r.UserAgent,
			RequestID: r.RequestID, CreatedAt: r.CreatedAt.UTC(), Hash: r.Hash, PrevHash: r.PrevHash,
		}
		if r.ActorType == "user" && r.OrganizationID != nil {
			if id, err := uuid.Parse(r.ActorID); err == nil {
				if e, ok := emails[memberKey{*r.OrganizationID, id}]; ok {
					v.ActorEmail = &e
				}
			}
		}
		return v
	}), nil
}

// memberKey names a user in an organization.
type memberKey struct{ org, user uuid.UUID }

// actorEmails finds the e-mails of the user actors of rows, each only
// when the user is a member of the entry's organization (one query).
func (s *Service) actorEmails(ctx context.Context, rows []model.AuditLog) (map[memberKey]string, error) {
	var orgs, users []uuid.UUID
	seenOrg, seenUser := map[uuid.UUID]bool{}, map[uuid.UUID]bool{}
	for _, r := range rows {
		if r.ActorType != "user" || r.OrganizationID == nil {
			continue
		}
		id, err := uuid.Parse(r.ActorID)
		if err != nil {
			continue
		}
		if !seenOrg[*r.OrganizationID] {
			seenOrg[*r.OrganizationID] = true
			orgs = append(orgs, *r.OrganizationID)
		}
		if !seenUser[id] {
			seenUser[id] = true
			users = append(users, id)
		}
	}
	found, err := s.st.Users().MemberEmails(ctx, orgs, users)
	if err != nil {
		return nil, err
	}
	out := make(map[memberKey]string, len(found))
	for _, m := range found {
		out[memberKey{m.OrganizationID, m.UserID}] = m.Email
	}
	return out, nil
}

// ChainView tells whether an organization's audit chain verifies.
type ChainView struct {
	OrganizationID uuid.UUID `json:"organization_id"`
	// Valid is true when every entry carries the keyed hash of its fields
	// and links to the one before, and the chain's head names its newest
	// entry.
	Valid bool `json:"valid"`
	// Entries is how many entries the chain holds.
	Entries int64 `json:"entries"`
	// HeadSeq and HeadHash are the chain's recorded head (0 and "" for an
	// empty chain). Keep them: a later head that does not reach them again
	// means entries were removed.
	HeadSeq  int64  `json:"head_seq"`
	HeadHash string `json:"head_hash"`
	// Problem says why the chain does not verify; BrokenEntryID names the
	// first entry at fault, when one is.
	Problem       *string    `json:"problem"`
	BrokenEntryID *uuid.UUID `json:"broken_entry_id"`
	VerifiedAt    time.Time  `json:"verified_at"`
}

// verifyTTL is how long a verification is reused: verifying reads the
// whole chain, so each organization's is done at most once per interval
// per process, however many callers ask.
const verifyTTL = 10 * time.Second

// checks remembers recent chain verifications.
type checks struct {
	group singleflight.Group
	mu    sync.Mutex
	done  map[string]*ChainView
}

// Chain verifies one of the caller's organizations' audit chain.
func (s *Service) Chain(ctx context.Context, who *model.Principal, orgID uuid.UUID) (*ChainView, error) {
	if _, err := access.Organization(ctx, s.st, who, orgID, access.Read); err != nil {
		return nil, err
	}
	key := orgID.String()
	s.checks.mu.Lock()
	if c, ok := s.checks.done[key]; ok && s.cfg.Now().Before(c.VerifiedAt.Add(verifyTTL)) {
		s.checks.mu.Unlock()
		v := *c
		return &v, nil
	}
	s.checks.mu.Unlock()
	// Concurrent callers share one verification, which outlives any of
	// them (bounded by its own timeout).
	ch := s.checks.group.DoChan(key, func() (any, error) {
		vctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		chk, err := s.st.Audit().Verify(vctx, &orgID, s.cfg.Key)
		if err != nil {
			return nil, err
		}
		v := chainView(orgID, chk, model.StoredTime(s.cfg.Now()))
		s.checks.mu.Lock()
		if len(s.checks.done) > 10000 {
			clear(s.checks.done)
		}
		s.checks.done[key] = v
		s.checks.mu.Unlock()
		return v, nil
	})
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case r := <-ch:
		if r.Err != nil {
			return nil, r.Err
		}
		v := *r.Val.(*ChainView)
		return &v, nil
	}
}

func chainView(orgID uuid.UUID, c *store.AuditChainCheck, at time.Time) *ChainView {
	v := &ChainView{OrganizationID: orgID, Valid: c.Valid(), Entries: c.Entries, VerifiedAt: at}
	if c.Head != nil {
		v.HeadSeq, v.HeadHash = c.Head.Seq, c.Head.Hash
	}
	if !c.Valid() {
		p := c.Problem
		v.Problem, v.BrokenEntryID = &p, c.BrokenAt
	}
	return v
}

// Rechain re-chains entries written before the audit chain was keyed
// under the audit key (see store.Audit.Rechain).
func (s *Service) Rechain(ctx context.Context) (int64, error) {
	return s.st.Audit().Rechain(ctx, s.cfg.Key)
}
