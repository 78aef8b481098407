package model

import (
	"time"

	"github.com/uptrace/bun"
)

// Health of the tax authority's API in one environment, as a process sees
// it through its circuit breakers.
const (
	AuthorityOK       = "ok"
	AuthorityDegraded = "degraded"
	AuthorityDown     = "down"
	// AuthorityUnknown is the health of an environment this process has
	// never called: no breaker has seen a call, so nothing is known.
	AuthorityUnknown = "unknown"
)

// AuthorityHealthRank orders the healths from best (0) to worst (2).
func AuthorityHealthRank(h string) int {
	switch h {
	case AuthorityDown:
		return 2
	case AuthorityDegraded:
		return 1
	}
	return 0
}

// NRSHealthReport is one process's view of NRS in one environment, kept
// fresh while it is not ok.
type NRSHealthReport struct {
	bun.BaseModel `bun:"table:nrs_health"`

	ProcessID   string      `bun:"process_id,pk"`
	Environment Environment `bun:"environment,pk"`
	Health      string      `bun:"health"`
	// Endpoints names the endpoints whose breakers are not closed,
	// comma-separated.
	Endpoints string    `bun:"endpoints"`
	UpdatedAt time.Time `bun:"updated_at"`
}
