package runs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/access"
)

// describeTimeout bounds the call to the workflow engine made while
// reading a run; past it the stored state is shown alone.
const describeTimeout = 2 * time.Second

// Get returns a run with its evidence: for an API key a run of its own
// project, for a portal user a run of a project of their organizations;
// any other run is not found.
func (s *Service) Get(ctx context.Context, who *model.Principal, runID uuid.UUID) (*View, error) {
	read := func() (*model.CertificationRun, []model.CertificationStep, error) {
		var (
			r   *model.CertificationRun
			err error
		)
		if who.IsKey() {
			r, err = s.st.Runs().Get(ctx, who.ProjectID, runID)
		} else {
			r, err = s.st.Runs().GetForUser(ctx, who.UserID, runID)
		}
		if err != nil {
			return nil, nil, err
		}
		steps, err := s.st.Runs().Steps(ctx, r.ID)
		return r, steps, err
	}
	r, steps, err := read()
	if err != nil {
		return nil, err
	}
	if !r.Status.Final() && s.cfg.Engine != nil {
		if st := s.describe(ctx, r); st != nil && st.Status.Final() {
			// The workflow may have recorded its end between the read
			// and the description (a workflow completes only after
			// recording its pass): read again before taking its verdict.
			if r, steps, err = read(); err != nil {
				return nil, err
			}
			if !r.Status.Final() {
				ended(r, steps, st, s.now())
			}
		}
	}
	return view(r, steps), nil
}

// describe asks the workflow engine how a run's workflow stands; nil when
// it cannot say.
func (s *Service) describe(ctx context.Context, r *model.CertificationRun) *State {
	dctx, cancel := context.WithTimeout(ctx, describeTimeout)
	defer cancel()
	st, err := s.cfg.Engine.DescribeCertificationRun(dctx, r.ID)
	if err != nil {
		s.cfg.Logger.DebugContext(ctx, "certification workflow not described", "run_id", r.ID.String(), "error", err.Error())
		return nil
	}
	return st
}

// verdict is the final status and reason of a run whose workflow ended as
// st without recording it. A workflow completes only after recording its
// pass, so a completed one that did not is failed.
func verdict(st *State) (model.RunStatus, string) {
	if st.Status == model.RunPassed {
		return model.RunFailed, "the workflow completed without recording the run's result"
	}
	return st.Status, st.Reason
}

// ended applies, to a run read from the store and its steps, the end its
// workflow reached without recording it, as Settle records it: the run
// takes the verdict, and its steps still running or retrying are failed.
func ended(r *model.CertificationRun, steps []model.CertificationStep, st *State, at time.Time) {
	r.Status, r.FailureReason = verdict(st)
	r.FinishedAt = &at
	if r.TemporalRunID == "" {
		r.TemporalRunID = st.TemporalRunID
	}
	for i := range steps {
		if steps[i].Status == model.StepRunning || steps[i].Status == model.StepRetrying {
			steps[i].Status = model.StepFailed
			if steps[i].FinishedAt == nil {
				steps[i].FinishedAt = &at
			}
		}
	}
}

// List lists one page of a project's runs, newest first, without their
// steps.
func (s *Service) List(ctx context.Context, who *model.Principal, projectID uuid.UUID, in model.PageInput) (*model.List[View], error) {
	page, err := access.ProjectPage(ctx, s.st, who, projectID, in)
	if err != nil {
		return nil, err
	}
	rows, more, err := s.st.Runs().List(ctx, projectID, page)
	if err != nil {
		return nil, err
	}
	return model.ListOf(rows, more, runID, listView), nil
}

// ByProject lists one page of runs (newest first, without their steps) of
// each project in projectIDs, by project id, for a GraphQL dataloader.
// Every id gets a list; one that is not the caller's gets an empty list.
// One query reads every project's page, tenant check included.
func (s *Service) ByProject(ctx context.Context, who *model.Principal, projectIDs []uuid.UUID, in model.PageInput) (map[uuid.UUID]*model.List[View], error) {
	page, err := in.Page()
	if err != nil {
		return nil, err
	}
	rows, err := s.st.Runs().ListForProjects(ctx, who.UserID, projectIDs, page)
	if err != nil {
		return nil, err
	}
	return model.Lists(projectIDs, rows, page.Limit, func(r *model.CertificationRun) uuid.UUID { return r.ProjectID }, runID, listView), nil
}

func runID(r *model.CertificationRun) uuid.UUID { return r.ID }

func listView(r *model.CertificationRun) View { return *view(r, nil) }

// Counts counts every project's runs by status, for operators' metrics;
// every status is present, zero when no run has it.
func (s *Service) Counts(ctx context.Context) (map[model.RunStatus]int64, error) {
	counts, err := s.st.Runs().CountByStatus(ctx)
	if err != nil {
		return nil, err
	}
	for _, st := range model.RunStatuses {
		if _, ok := counts[st]; !ok {
			counts[st] = 0
		}
	}
	return counts, nil
}

// watchInterval is how often a watched run is read again.
const watchInterval = 250 * time.Millisecond

// Watch sends the run's view now and again every time it changes (a step
// starts or ends, the run ends), then closes the channel when the run is
// over or ctx ends; Get decides who may watch. Other transports (a GraphQL
// subscription) use it to push progress. It reads the store, so it sees
// runs executed by workers in other processes.
func (s *Service) Watch(ctx context.Context, who *model.Principal, runID uuid.UUID) (<-chan View, error) {
	first, err := s.Get(ctx, who, runID)
	if err != nil {
		return nil, err
	}
	out := make(chan View, 1)
	go func() {
		defer close(out)
		last, _ := json.Marshal(first)
		out <- *first
		if first.Status.Final() {
			return
		}
		t := time.NewTicker(watchInterval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			v, err := s.Get(ctx, who, runID)
			if err != nil {
				if ctx.Err() == nil && !errors.Is(err, context.Canceled) {
					s.cfg.Logger.WarnContext(ctx, "certification run watch stopped", "error", err.Error())
				}
				return
			}
			cur, _ := json.Marshal(v)
			if !bytes.Equal(cur, last) {
				select {
				case out <- *v:
				case <-ctx.Done():
					return
				}
				last = cur
			}
			if v.Status.Final() {
				return
			}
		}
	}()
	return out, nil
}
