package model

import "github.com/google/uuid"

// Page asks for one page of a list ordered by id (ids are UUIDv7, so id order
// is creation order).
type Page struct {
	Limit int
	// After is the id of the last item of the previous page; zero for the
	// first page.
	After uuid.UUID
}

// Page size bounds of every list.
const (
	DefaultPageLimit = 50
	MaxPageLimit     = 200
)
