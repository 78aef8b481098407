package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/lexer"
	"github.com/vektah/gqlparser/v2/parser"
)

// Extension codes of documents refused by DocumentLimit, beside gqlgen's
// COMPLEXITY_LIMIT_EXCEEDED and DEPTH_LIMIT_EXCEEDED.
const (
	querySizeLimitCode = "QUERY_SIZE_LIMIT_EXCEEDED"
	tokenLimitCode     = "TOKEN_LIMIT_EXCEEDED"
	selectionLimitCode = "SELECTION_LIMIT_EXCEEDED"
)

// Defaults of the document limits. GraphiQL's introspection query (every
// option on) is about 2,000 bytes, 180 tokens and 230 selections once its
// fragments are expanded; the portal's whole me tree about 1,100 bytes,
// 250 tokens and 90 selections. Large inputs belong in variables, which
// these limits do not count.
const (
	// DefaultMaxQueryBytes bounds the query text.
	DefaultMaxQueryBytes = 32 << 10
	// DefaultMaxTokens bounds the query's tokens (names, punctuation,
	// values, comments); lexing and parsing are linear in them.
	DefaultMaxTokens = 4_000
	// DefaultMaxSelections bounds the document's fields and aliases (a
	// field under an alias counts twice), each fragment counted where it
	// is spread. Validation compares fields that share a response name
	// pairwise, down nested selections, so its cost grows with the square
	// of this number (docs/security.md has figures).
	DefaultMaxSelections = 500
)

// DocumentLimit refuses a query document that is too large before gqlgen
// parses and validates it, since validation costs time quadratic in the
// number of repeated fields (`{ __typename __typename … }`) and neither the
// depth nor the complexity limit, which run after validation, counts them.
// It checks the text's size, then its tokens with the lexer alone (linear,
// stopping at the limit), then parses it and counts its selections with
// every fragment spread expanded (memoized per fragment, stopping past the
// limit). A document already in the query cache was accepted before and is
// not checked again.
type DocumentLimit struct {
	MaxBytes      int
	MaxTokens     int
	MaxSelections int
	// Cache is the server's query cache, or nil.
	Cache graphql.Cache[*ast.QueryDocument]
}

var (
	_ graphql.HandlerExtension          = DocumentLimit{}
	_ graphql.OperationParameterMutator = DocumentLimit{}
)

// ExtensionName implements graphql.HandlerExtension.
func (DocumentLimit) ExtensionName() string { return "DocumentLimit" }

// Validate implements graphql.HandlerExtension.
func (DocumentLimit) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationParameters implements graphql.OperationParameterMutator:
// it runs before gqlgen parses the query.
func (d DocumentLimit) MutateOperationParameters(ctx context.Context, p *graphql.RawParams) *gqlerror.Error {
	q := p.Query
	if d.MaxBytes > 0 && len(q) > d.MaxBytes {
		return limitError(querySizeLimitCode, "the query is %d bytes, over the limit of %d", len(q), d.MaxBytes)
	}
	if d.Cache != nil {
		if _, ok := d.Cache.Get(ctx, q); ok {
			return nil
		}
	}
	src := &ast.Source{Input: q}
	if d.MaxTokens > 0 && !fewTokens(src, d.MaxTokens) {
		return limitError(tokenLimitCode, "the query has more than %d tokens", d.MaxTokens)
	}
	if d.MaxSelections <= 0 {
		return nil
	}
	doc, err := parser.ParseQuery(src)
	if err != nil {
		return nil // gqlgen reports the syntax error itself
	}
	if n := selections(doc, d.MaxSelections); n > d.MaxSelections {
		return limitError(selectionLimitCode, "the query selects more than %d fields and aliases (a field under an alias counts twice; fragments counted where they are spread)", d.MaxSelections)
	}
	return nil
}

// fewTokens reports whether src has at most limit tokens. A lexing error
// ends the count early: the parser reports it.
func fewTokens(src *ast.Source, limit int) bool {
	lx := lexer.New(src)
	for n := 0; ; n++ {
		if n > limit {
			return false
		}
		tok, err := lx.ReadToken()
		if err != nil || tok.Kind == lexer.EOF {
			return true
		}
	}
}

// selections counts the fields of every operation of doc, and their
// aliases (a field under an alias counts twice: its name and its response
// name), with each
// fragment spread counting its fragment's fields again where it is spread,
// plus the fields of fragments no operation spreads (validation visits
// them too before refusing them), and stops counting once past limit.
func selections(doc *ast.QueryDocument, limit int) int {
	c := selectionCounter{doc: doc, limit: limit, memo: map[string]int{}, visiting: map[string]bool{}}
	n := 0
	for _, op := range doc.Operations {
		if n += c.set(op.SelectionSet); n > limit {
			return n
		}
	}
	for _, f := range doc.Fragments {
		if _, spread := c.memo[f.Name]; spread {
			continue
		}
		if n += c.fragment(f.Name); n > limit {
			return n
		}
	}
	return n
}

type selectionCounter struct {
	doc      *ast.QueryDocument
	limit    int
	memo     map[string]int
	visiting map[string]bool
}

func (c *selectionCounter) set(set ast.SelectionSet) int {
	n := 0
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			n += 1 + c.set(s.SelectionSet)
			if s.Alias != "" && s.Alias != s.Name {
				// The response name counts beside the field's: aliases
				// are what let fields that differ share a response name,
				// which validation then compares pairwise.
				n++
			}
		case *ast.InlineFragment:
			n += c.set(s.SelectionSet)
		case *ast.FragmentSpread:
			n += c.fragment(s.Name)
		}
		if n > c.limit {
			return n
		}
	}
	return n
}

// fragment counts a fragment's fields once and remembers it. A cycle
// counts nothing more (validation refuses cycles) and an unknown fragment
// nothing (validation refuses it too).
func (c *selectionCounter) fragment(name string) int {
	if n, ok := c.memo[name]; ok {
		return n
	}
	f := c.doc.Fragments.ForName(name)
	if f == nil || c.visiting[name] {
		return 0
	}
	c.visiting[name] = true
	n := c.set(f.SelectionSet)
	delete(c.visiting, name)
	c.memo[name] = n
	return n
}

// limitError is a GraphQL error raised before anything ran, with code as
// its extensions.code.
func limitError(code, format string, args ...any) *gqlerror.Error {
	err := gqlerror.Errorf(format, args...)
	errcode.Set(err, code)
	return err
}
