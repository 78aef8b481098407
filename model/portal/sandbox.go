package portal

import (
	"context"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// SandboxRegistrar registers sandbox businesses with the NRS sandbox
// stand-in, which keeps them in its own database. The stand-in implements it
// in process (nrssandbox.Handler) and over HTTP (nrssandbox.AdminClient); a
// conflict error means the business_id, API key or TIN belongs to another
// project.
type SandboxRegistrar interface {
	RegisterSandboxBusiness(ctx context.Context, b model.SandboxBusiness) error
}

// sandboxPageSize bounds how many projects SandboxBusinesses holds per query.
const sandboxPageSize = 500

// SandboxBusinesses lists every sandbox project of every tenant with its
// opened secrets, for registering them again with the NRS sandbox stand-in.
// Projects without sandbox API credentials (created before they existed)
// come with APIKey and APISecret empty; see RegisterSandboxBusinesses.
func (s *Service) SandboxBusinesses(ctx context.Context) ([]model.SandboxBusiness, error) {
	var out []model.SandboxBusiness
	err := s.eachSandboxProject(ctx, func(pr *model.Project) error {
		b, err := s.dir.SandboxBusiness(pr)
		if err != nil {
			return err
		}
		out = append(out, b)
		return nil
	})
	return out, err
}

// RegisterSandboxBusinesses registers every sandbox project with the
// configured SandboxRegistrar, generating sandbox API credentials first for
// projects that have none. Call it at startup: registration is idempotent,
// and this repairs projects created while the stand-in was unreachable or
// before it kept its state. It returns how many businesses were registered;
// a business the stand-in refuses as another project's is logged and
// skipped, and any other failure stops it.
func (s *Service) RegisterSandboxBusinesses(ctx context.Context) (int, error) {
	reg := s.cfg.SandboxRegistrar
	if reg == nil {
		return 0, nil
	}
	n := 0
	err := s.eachSandboxProject(ctx, func(pr *model.Project) error {
		if len(pr.APIKeyEnc) == 0 || len(pr.APISecretEnc) == 0 {
			if err := s.dir.ProvisionSandboxCredentials(pr); err != nil {
				return err
			}
			pr.UpdatedAt = s.now()
			if err := s.st.Projects().UpdateAuthority(ctx, pr); err != nil {
				return err
			}
			s.dir.Forget(pr.ID)
		}
		b, err := s.dir.SandboxBusiness(pr)
		if err != nil {
			return err
		}
		if err := reg.RegisterSandboxBusiness(ctx, b); err != nil {
			if model.ErrorCodeOf(err) == model.CodeConflict {
				// Another project holds the business at the stand-in: this
				// project's runs fail until its owner fixes its settings,
				// and nobody else's are touched.
				s.cfg.Logger.WarnContext(ctx, "sandbox business refused by the NRS sandbox stand-in",
					"project_id", pr.ID.String(), "error", err.Error())
				return nil
			}
			return model.Wrap(model.CodeUnavailable, err, "cannot register sandbox business of project %s", pr.ID)
		}
		n++
		return nil
	})
	return n, err
}

// eachSandboxProject calls fn for every configured sandbox project, in id
// order, a page at a time.
func (s *Service) eachSandboxProject(ctx context.Context, fn func(pr *model.Project) error) error {
	after := uuid.Nil
	for {
		page, err := s.st.Projects().Sandbox(ctx, after, sandboxPageSize)
		if err != nil {
			return err
		}
		for i := range page {
			if err := fn(&page[i]); err != nil {
				return err
			}
		}
		if len(page) < sandboxPageSize {
			return nil
		}
		after = page[len(page)-1].ID
	}
}

// errSandboxBusinessKept refuses a sandbox project another business_id
// than the one einvoice gave it: one answer whether the id is free or
// another project's, so that it tells nothing about other tenants.
func errSandboxBusinessKept() error {
	return model.Errorf(model.CodeConflict, "a sandbox project keeps the business_id einvoice gave it; the NRS sandbox takes no other")
}

// register tells the registrar about a sandbox project: one just committed
// (strict false), or one whose authority settings are being changed, inside
// the change's transaction (strict true). A conflict (the stand-in holds the
// business_id, API key or TIN for another project) refuses a strict change;
// any other failure is logged, not returned: the project exists whatever
// happens here, and RegisterSandboxBusinesses repairs it at the next start.
func (s *Service) register(ctx context.Context, pr *model.Project, strict bool) error {
	if s.cfg.SandboxRegistrar == nil || pr.Environment != model.EnvironmentSandbox || !pr.Configured {
		return nil
	}
	b, err := s.dir.SandboxBusiness(pr)
	if err == nil {
		err = s.cfg.SandboxRegistrar.RegisterSandboxBusiness(ctx, b)
	}
	switch {
	case err == nil:
		return nil
	case strict && model.ErrorCodeOf(err) == model.CodeConflict:
		return errSandboxBusinessKept()
	}
	s.cfg.Logger.WarnContext(ctx, "sandbox business not registered with the NRS sandbox stand-in",
		"project_id", pr.ID.String(), "error", err.Error())
	return nil
}
