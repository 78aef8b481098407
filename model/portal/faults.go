package portal

import (
	"context"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/access"
	"github.com/einvoice-ng/einvoice/model/store"
)

// SandboxFaults switches outages and throttles of sandbox businesses on and
// off at the NRS sandbox stand-in, so that a sandbox project rehearses NRS
// failing. The stand-in implements it in process (nrssandbox.Handler) and
// over HTTP (nrssandbox.AdminClient). Errors are *model.Error.
type SandboxFaults interface {
	SetSandboxFault(ctx context.Context, businessID string, f model.SandboxFault) (model.SandboxFault, error)
	SandboxFaults(ctx context.Context, businessID string) ([]model.SandboxFault, error)
	ClearSandboxFaults(ctx context.Context, businessID, kind, endpoint string) (int, error)
}

// SandboxFaultKinds are the kinds of fault.
var SandboxFaultKinds = []string{model.SandboxFaultOutage, model.SandboxFaultThrottle}

// Bounds of a fault request (the stand-in checks the rest: the endpoint
// names and the rate's form).
const (
	maxFaultDuration   = 7 * 24 * time.Hour
	maxFaultRetryAfter = 3600
)

// validateFault records the problems of a fault request.
func validateFault(in *model.SandboxFault, p *model.Problems) {
	p.CheckEnum(in.Kind, SandboxFaultKinds, "kind")
	if in.Endpoint != "" {
		p.CheckLength(in.Endpoint, 1, 64, "endpoint")
	}
	switch in.Status {
	case 0, 502, 503, 504:
	default:
		p.Add(model.ProblemEnum, "Input should be 502, 503 or 504", "status")
	}
	if in.Kind == model.SandboxFaultThrottle && in.Rate == "" {
		p.Add(model.ProblemMissing, "a throttle needs rate (COUNT/PERIOD, e.g. 10/m)", "rate")
	}
	if in.Rate != "" {
		p.CheckLength(in.Rate, 3, 32, "rate")
	}
	if in.RetryAfter < 0 || in.RetryAfter > maxFaultRetryAfter {
		p.Add(model.ProblemValueError, "retry_after must be 0 to "+strconv.Itoa(maxFaultRetryAfter)+" seconds", "retry_after")
	}
	if d, err := time.ParseDuration(in.Duration); in.Duration == "" {
		p.Add(model.ProblemMissing, "Field required", "duration")
	} else if err != nil || d < time.Second || d > maxFaultDuration {
		p.Add(model.ProblemValueError, "duration must be a duration from 1s to 168h (e.g. 6h, 90s)", "duration")
	}
	if in.StartsAt != nil || in.EndsAt != nil {
		p.Add(model.ProblemExtraForbidden, "starts_at and ends_at are set by the sandbox: send duration", "starts_at")
	}
}

// sandboxProject finds a sandbox project who may reach with need, and the
// fault switch; a production project has no faults to set.
func (s *Service) sandboxProject(ctx context.Context, tx *store.Store, who *model.Principal, projectID uuid.UUID,
	need access.Need) (*model.Project, SandboxFaults, error) {
	pr, err := access.Project(ctx, tx, who, projectID, need)
	if err != nil {
		return nil, nil, err
	}
	if pr.Environment != model.EnvironmentSandbox {
		return nil, nil, model.Errorf(model.CodeConflict, "faults are rehearsed in sandbox projects only: this project is %s", pr.Environment)
	}
	if s.cfg.SandboxFaults == nil {
		return nil, nil, model.Errorf(model.CodeUnavailable,
			"this API does not reach the NRS sandbox stand-in's faults (EINVOICE_NRS_SANDBOX_URL and EINVOICE_NRS_SANDBOX_ADMIN_TOKEN, or an embedded stand-in)")
	}
	return pr, s.cfg.SandboxFaults, nil
}

// SetSandboxFault switches on an outage or a throttle of a sandbox
// project's business at the NRS sandbox stand-in (owners and admins), with
// its audit entry (sandbox_fault.set). Setting a fault of the same kind and
// endpoint again replaces it.
func (s *Service) SetSandboxFault(ctx context.Context, who *model.Principal, projectID uuid.UUID, in model.SandboxFault) (*model.SandboxFault, error) {
	var p model.Problems
	validateFault(&in, &p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	var out model.SandboxFault
	err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		pr, faults, err := s.sandboxProject(ctx, tx, who, projectID, access.Write)
		if err != nil {
			return err
		}
		if err := s.cfg.Trail.Record(ctx, tx, &pr.OrganizationID, who.Actor(), model.ActionSandboxFaultSet, "project", pr.ID.String()); err != nil {
			return err
		}
		// Last: a refusal by the stand-in rolls the audit entry back.
		out, err = faults.SetSandboxFault(ctx, pr.BusinessID, in)
		return businessMissing(err)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// SandboxFaults lists the faults in force of a sandbox project's business
// (any member).
func (s *Service) SandboxFaults(ctx context.Context, who *model.Principal, projectID uuid.UUID) ([]model.SandboxFault, error) {
	pr, faults, err := s.sandboxProject(ctx, s.st, who, projectID, access.Read)
	if err != nil {
		return nil, err
	}
	out, err := faults.SandboxFaults(ctx, pr.BusinessID)
	if err := businessMissing(err); err != nil {
		return nil, err
	}
	if out == nil {
		out = []model.SandboxFault{}
	}
	return out, nil
}

// ClearSandboxFaults ends faults of a sandbox project's business (owners
// and admins): all of them when kind is "", else those of kind (on one
// endpoint when endpoint is set), with its audit entry
// (sandbox_fault.clear). It returns how many ended.
func (s *Service) ClearSandboxFaults(ctx context.Context, who *model.Principal, projectID uuid.UUID, kind, endpoint string) (int, error) {
	var p model.Problems
	if kind != "" {
		p.CheckEnum(kind, SandboxFaultKinds, "kind")
	} else if endpoint != "" {
		p.Add(model.ProblemMissing, "endpoint needs kind", "kind")
	}
	if endpoint != "" {
		p.CheckLength(endpoint, 1, 64, "endpoint")
	}
	if err := p.Err(); err != nil {
		return 0, err
	}
	var n int
	err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		pr, faults, err := s.sandboxProject(ctx, tx, who, projectID, access.Write)
		if err != nil {
			return err
		}
		if err := s.cfg.Trail.Record(ctx, tx, &pr.OrganizationID, who.Actor(), model.ActionSandboxFaultClear, "project", pr.ID.String()); err != nil {
			return err
		}
		n, err = faults.ClearSandboxFaults(ctx, pr.BusinessID, kind, endpoint)
		return businessMissing(err)
	})
	return n, err
}

// businessMissing says what a stand-in that does not know the project's
// business means: the project is not registered there (yet).
func businessMissing(err error) error {
	if model.ErrorCodeOf(err) == model.CodeNotFound {
		return model.Errorf(model.CodeUnavailable, "the NRS sandbox stand-in does not know this project's business yet; it is registered at the API's next start")
	}
	return err
}
