package main

import (
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/mbs"
)

// An environment no breaker has seen a call to is unknown, not ok: a
// process that never reached NRS cannot say it answers.
func TestBreakersHealthUnknownBeforeAnyCall(t *testing.T) {
	local := breakersHealth(mbs.NewBreakers(mbs.BreakerOptions{Failures: 2}))
	for _, env := range []model.Environment{model.EnvironmentSandbox, model.EnvironmentProduction} {
		if h, open := local(env); h != model.AuthorityUnknown || len(open) != 0 {
			t.Fatalf("%s: health %q, open %v; want unknown and none", env, h, open)
		}
	}
}
