package model

import (
	"encoding/base64"
	"strings"

	"github.com/google/uuid"
)

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

// PageInput is a list request's limit and cursor as given by the client.
type PageInput struct {
	Limit  *int
	Cursor string
}

// Validate checks limit (1..200, default 50) and decodes the cursor,
// recording every problem.
func (in PageInput) Validate(p *Problems) Page {
	page := Page{Limit: DefaultPageLimit}
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit > MaxPageLimit {
			p.Add(ProblemValueError, "Input should be between 1 and 200", "limit")
		} else {
			page.Limit = *in.Limit
		}
	}
	if in.Cursor != "" {
		b, err := base64.RawURLEncoding.DecodeString(strings.TrimSpace(in.Cursor))
		var id uuid.UUID
		if err == nil && len(b) == 16 {
			copy(id[:], b)
		}
		if id == uuid.Nil {
			p.Add(ProblemValueError, "Input should be a cursor returned by a previous page", "cursor")
		}
		page.After = id
	}
	return page
}

// Page is Validate for a list request whose only input is its page: the
// page, or the invalid error listing every problem.
func (in PageInput) Page() (Page, error) {
	var p Problems
	page := in.Validate(&p)
	return page, p.Err()
}

// List is one page of items and the cursor of the next page (nil at the end).
type List[T any] struct {
	Items      []T     `json:"items"`
	NextCursor *string `json:"next_cursor"`
}

// PageCursor returns the cursor of the item with id: the NextCursor of a
// page that item ends. GraphQL connections give it to every edge.
func PageCursor(id uuid.UUID) string { return base64.RawURLEncoding.EncodeToString(id[:]) }

func cursorFor(id uuid.UUID) *string {
	c := PageCursor(id)
	return &c
}

// ListOf turns one page of rows (more: another page follows) into a List of
// views; the cursor names the last row shown.
func ListOf[R, V any](rows []R, more bool, idOf func(*R) uuid.UUID, view func(*R) V) *List[V] {
	out := &List[V]{Items: make([]V, 0, len(rows))}
	for i := range rows {
		out.Items = append(out.Items, view(&rows[i]))
	}
	if more && len(rows) > 0 {
		out.NextCursor = cursorFor(idOf(&rows[len(rows)-1]))
	}
	return out
}

// Lists splits rows (at most limit+1 per parent, ordered by parent then id,
// as the store's batch queries return them) into one List per parent, for
// GraphQL dataloaders. Every parent gets a list, empty when it has no rows;
// NextCursor names the last item shown, as in a one-parent list.
func Lists[R, V any](parents []uuid.UUID, rows []R, limit int, parentOf, idOf func(*R) uuid.UUID, view func(*R) V) map[uuid.UUID]*List[V] {
	out := make(map[uuid.UUID]*List[V], len(parents))
	for _, id := range parents {
		out[id] = &List[V]{Items: []V{}}
	}
	last := make(map[uuid.UUID]uuid.UUID, len(parents))
	for i := range rows {
		r := &rows[i]
		parent := parentOf(r)
		l, ok := out[parent]
		if !ok {
			continue
		}
		if len(l.Items) >= limit {
			l.NextCursor = cursorFor(last[parent])
			continue
		}
		l.Items = append(l.Items, view(r))
		last[parent] = idOf(r)
	}
	return out
}
