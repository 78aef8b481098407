package nrssandbox

import (
	"net/http"
	"strconv"

	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb"
)

// Paging of the search endpoints: MBS's query parameters size, page,
// sort_by and sort_direction_desc (strings in the Swagger). Values that do
// not parse fall back to the defaults rather than being refused, since MBS
// publishes no rule for them.
const (
	defaultPageSize = 20
	maxPageSize     = 100
)

// pageOf reads a search's paging.
func pageOf(r *http.Request) sandboxdb.Page {
	q := r.URL.Query()
	p := sandboxdb.Page{Number: 1, Size: defaultPageSize, SortBy: q.Get("sort_by"), Desc: true}
	if n, err := strconv.Atoi(q.Get("size")); err == nil && n > 0 {
		p.Size = min(n, maxPageSize)
	}
	if n, err := strconv.Atoi(q.Get("page")); err == nil && n > 0 && n <= 1_000_000 {
		p.Number = n
	}
	if b, err := strconv.ParseBool(q.Get("sort_direction_desc")); err == nil {
		p.Desc = b
	}
	return p
}

// pageView is one page of a search (einvoice's reading: MBS's is not
// published; the Swagger's description of page speaks of "totalPages").
type pageView struct {
	Items      any `json:"items"`
	Page       int `json:"page"`
	Size       int `json:"size"`
	Total      int `json:"total"`
	TotalPages int `json:"totalPages"`
}

func newPage[T any](items []T, p sandboxdb.Page, total int) pageView {
	if items == nil {
		items = []T{}
	}
	return pageView{Items: items, Page: p.Number, Size: p.Size, Total: total, TotalPages: (total + p.Size - 1) / p.Size}
}
