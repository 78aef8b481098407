package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"

	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// SelectionsPerCost is how many selections (fields and aliases, counted
// as DocumentLimit counts them) one unit of a request's cost covers: a
// request costs 1 plus its selections divided by this, so the portal's
// whole me tree (about 90 selections) costs 1 and the largest document the
// limits admit costs 6.
const SelectionsPerCost = 100

// RequestCost is what a /graphql request weighs against the rate limits:
// 1 plus one unit per SelectionsPerCost selections of its document (POST
// JSON body or GET query parameter), and the most a document can weigh
// when it is over the size, token or selection limits (it is refused, but
// it was sent). A request whose document cannot be read or parsed costs 1:
// it is refused before anything runs. The body is read and put back for
// the handler. Costs are remembered per document text.
func (e *endpoint) RequestCost(r *http.Request) int {
	var query string
	switch r.Method {
	case http.MethodGet:
		query = r.URL.Query().Get("query")
	case http.MethodPost:
		body, err := io.ReadAll(r.Body)
		_ = r.Body.Close()
		rest := io.Reader(bytes.NewReader(body))
		if err != nil {
			rest = io.MultiReader(rest, errorReader{err})
		}
		r.Body = io.NopCloser(rest)
		if err != nil {
			return e.maxCost()
		}
		var params struct {
			Query string `json:"query"`
		}
		if json.Unmarshal(body, &params) != nil {
			return 1
		}
		query = params.Query
	default:
		return 1
	}
	if query == "" {
		return 1
	}
	if c, ok := e.costs.Get(r.Context(), query); ok {
		return c
	}
	c := e.cost(query)
	e.costs.Add(context.Background(), query, c)
	return c
}

// cost weighs one document under the limits of the handler.
func (e *endpoint) cost(query string) int {
	if len(query) > e.limits.MaxBytes {
		return e.maxCost()
	}
	src := &ast.Source{Input: query}
	if !fewTokens(src, e.limits.MaxTokens) {
		return e.maxCost()
	}
	doc, err := parser.ParseQuery(src)
	if err != nil {
		return 1
	}
	n := selections(doc, e.limits.MaxSelections)
	if n > e.limits.MaxSelections {
		return e.maxCost()
	}
	return 1 + n/SelectionsPerCost
}

// maxCost is the cost of a document over the limits.
func (e *endpoint) maxCost() int { return 1 + (e.limits.MaxSelections+1)/SelectionsPerCost }

// errorReader fails every read with err.
type errorReader struct{ err error }

func (r errorReader) Read([]byte) (int, error) { return 0, r.err }

// newCostCache remembers the costs of recent documents.
func newCostCache() *lru.LRU[int] { return lru.New[int](1000) }
