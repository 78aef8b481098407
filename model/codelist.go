package model

import (
	"time"

	"github.com/uptrace/bun"
)

// AuthorityCodeList is a code list as a tax authority served it in one
// environment, stored so that every process validates with it. A refresh
// replaces the row of each list it fetched.
type AuthorityCodeList struct {
	bun.BaseModel `bun:"table:authority_code_lists"`

	TaxAuthorityCode string      `bun:"tax_authority_code,pk"`
	Environment      Environment `bun:"environment,pk"`
	Name             string      `bun:"name,pk"`
	// Data is the list exactly as served; empty when only versions were
	// read.
	Data []byte `bun:"data"`
	// SHA256 is the hex SHA-256 of Data.
	SHA256    string    `bun:"sha256"`
	Entries   int       `bun:"entries"`
	FetchedAt time.Time `bun:"fetched_at"`
}
