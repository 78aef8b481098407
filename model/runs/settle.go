package runs

import (
	"context"
	"time"

	"github.com/google/uuid"
)

// settleAfter is how old an unfinished run must be before Settle asks the
// workflow engine about it: a younger one is normally under way.
const settleAfter = time.Minute

// settlePage is how many runs Settle reads at a time.
const settlePage = 200

// Settle records the end of the runs whose workflow ended without
// recording it (terminated, timed out): it asks the workflow engine about
// every run still queued or running settleAfter after its creation, and
// finishes those whose workflow is over, with the verdict Get shows. An
// engine that cannot say leaves a run as it is, for the next call. It
// returns how many runs it finished.
func (s *Service) Settle(ctx context.Context) (int64, error) {
	if s.cfg.Engine == nil {
		return 0, nil
	}
	var n int64
	before := s.now().Add(-settleAfter)
	after := uuid.Nil
	for {
		page, err := s.st.Runs().Unfinished(ctx, before, after, settlePage)
		if err != nil {
			return n, err
		}
		for i := range page {
			r := &page[i]
			st := s.describe(ctx, r)
			if st == nil || !st.Status.Final() {
				continue
			}
			status, reason := verdict(st)
			done, err := finish(ctx, s.st, r.ID, status, reason, s.now())
			if err != nil {
				return n, err
			}
			if done {
				n++
				s.cfg.Logger.InfoContext(ctx, "certification run settled: its workflow ended without recording it",
					"run_id", r.ID.String(), "status", string(status), "reason", reason)
			}
		}
		if len(page) < settlePage {
			return n, nil
		}
		after = page[len(page)-1].ID
	}
}
