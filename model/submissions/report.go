package submissions

import (
	"context"

	"github.com/google/uuid"
)

// Reported reports whether one of ops (the report's operations) has been
// answered 2xx for the invoice: its report went through and is not sent
// again.
func (s *Steps) Reported(ctx context.Context, invoiceID uuid.UUID, ops ...string) (bool, error) {
	after := 0
	for {
		evs, more, err := s.st.Submissions().Events(ctx, invoiceID, after, 500)
		if err != nil {
			return false, err
		}
		for _, ev := range evs {
			after = ev.Seq
			if ev.HTTPStatus == nil || *ev.HTTPStatus < 200 || *ev.HTTPStatus > 299 {
				continue
			}
			for _, op := range ops {
				if ev.Operation == op {
					return true, nil
				}
			}
		}
		if !more {
			return false, nil
		}
	}
}
