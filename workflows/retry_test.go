package workflows

import (
	"errors"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"
)

// TestRetryOptionsLastUntilTheRunsDeadline: a step scheduled at any point
// of a run may retry until the run's deadline, with as many attempts as fit before it, and
// is given at least minScheduleToClose.
func TestRetryOptionsLastUntilTheRunsDeadline(t *testing.T) {
	start := time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		timeout time.Duration
		at      time.Duration
		want    time.Duration
	}{
		{time.Hour, 0, time.Hour},
		{time.Hour, 20 * time.Minute, 40 * time.Minute},
		{0, 50 * time.Minute, 10 * time.Minute},
		{time.Hour, 59*time.Minute + 30*time.Second, minScheduleToClose},
	} {
		o := retryOptionsAt(start, c.timeout, start.Add(c.at))
		if o.ScheduleToCloseTimeout != c.want {
			t.Errorf("timeout %v at %v: schedule-to-close %v, want %v", c.timeout, c.at, o.ScheduleToCloseTimeout, c.want)
		}
		if p := o.RetryPolicy; time.Duration(p.MaximumAttempts)*p.MaximumInterval < c.want {
			t.Errorf("maximum attempts %d at %v each: they end before the deadline", p.MaximumAttempts, p.MaximumInterval)
		}
	}
	if activityOptions.RetryPolicy.MaximumInterval > 30*time.Second {
		t.Errorf("maximum interval %v: a returning database would wait too long", activityOptions.RetryPolicy.MaximumInterval)
	}
}

// TestGiveUpBoundsAuthorityFailuresOnly: an authority that stays
// unavailable or not ready, and internal errors, are final at
// AuthorityAttempts; an infrastructure failure is retried at any attempt.
func TestGiveUpBoundsAuthorityFailuresOnly(t *testing.T) {
	for _, c := range []struct {
		typ     string
		attempt int32
		final   bool
	}{
		{ErrUnavailable, 1, false},
		{ErrUnavailable, AuthorityAttempts - 1, false},
		{ErrUnavailable, AuthorityAttempts, true},
		{ErrNotYet, AuthorityAttempts, true},
		{ErrInternal, AuthorityAttempts, true},
		{ErrInfrastructure, AuthorityAttempts, false},
		{ErrInfrastructure, 500, false},
	} {
		err := giveUp(temporal.NewApplicationError("down", c.typ), c.attempt)
		var app *temporal.ApplicationError
		if !errors.As(err, &app) || app.Type() != c.typ || app.NonRetryable() != c.final {
			t.Errorf("%s at attempt %d: %v (non-retryable %v), want non-retryable %v", c.typ, c.attempt, err, app != nil && app.NonRetryable(), c.final)
		}
	}
}
