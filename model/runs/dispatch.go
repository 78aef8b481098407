package runs

import (
	"context"
	"errors"
	"time"

	"github.com/einvoice-ng/einvoice/model"
)

// dispatchAfter is how old an undispatched run must be before Dispatch
// starts it: a younger one is normally being started by the request that
// recorded it.
const dispatchAfter = 2 * time.Second

// dispatchPage is how many runs Dispatch starts in one call.
const dispatchPage = 100

// errEngineTooLong ends a run whose workflow could not be started within
// the time a run may take.
const errEngineTooLong = "the workflow engine (Temporal) could not be reached to start the run within an hour"

// Dispatch starts the workflows of recorded runs that were not started
// yet (the engine was slow or down when they were recorded): the relay of
// the outbox Start writes to. Every API process runs it in the background;
// two dispatching one run start one workflow, whose id derives from the
// run id. A run that could not be started within activeWindow is failed.
// It stops at the first start the engine refuses, for the next call, and
// returns how many runs it started or failed.
func (s *Service) Dispatch(ctx context.Context) (int64, error) {
	if s.cfg.Engine == nil {
		return 0, nil
	}
	page, err := s.st.Runs().Undispatched(ctx, s.now().Add(-dispatchAfter), dispatchPage)
	if err != nil {
		return 0, err
	}
	var n int64
	for i := range page {
		r := &page[i]
		if r.CreatedAt.Before(s.now().Add(-activeWindow)) {
			done, err := s.st.Runs().Finish(ctx, r.ID, model.RunFailed, errEngineTooLong, s.now())
			if err != nil {
				return n, err
			}
			if done {
				n++
			}
			continue
		}
		pr, err := s.st.Projects().ByID(ctx, r.ProjectID)
		if err != nil {
			return n, err
		}
		if err := s.dispatch(ctx, r, pr); err != nil {
			if errors.Is(ctx.Err(), context.Canceled) {
				return n, nil
			}
			return n, err
		}
		n++
		s.cfg.Logger.InfoContext(ctx, "certification run dispatched", "run_id", r.ID.String())
	}
	return n, nil
}
