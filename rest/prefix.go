package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// prefixed is the router of the routes under prefix, for a function that
// declares them as r.Route(prefix, fn) would, but in Router's own table:
// a request then finds its route in one lookup, without a sub-router (a
// second lookup, a second route pattern built, a path value for the
// joint). Patterns take the prefix; middleware goes through With and
// Group, whose routers keep the prefix. Use is for those routers only
// (group is set): on the router given to fn it would reach routes outside
// the prefix, so it panics, as do NotFound and MethodNotAllowed.
type prefixed struct {
	chi.Router
	prefix string
	group  bool
}

func (p prefixed) Use(middlewares ...func(http.Handler) http.Handler) {
	if !p.group {
		panic("rest: Use on a prefixed router; use Group or With")
	}
	p.Router.Use(middlewares...)
}

func (p prefixed) With(middlewares ...func(http.Handler) http.Handler) chi.Router {
	return prefixed{p.Router.With(middlewares...), p.prefix, true}
}

func (p prefixed) Group(fn func(r chi.Router)) chi.Router {
	im := p.With()
	if fn != nil {
		fn(im)
	}
	return im
}

func (p prefixed) Route(pattern string, fn func(r chi.Router)) chi.Router {
	return p.Router.Route(p.prefix+pattern, fn)
}

func (p prefixed) Mount(pattern string, h http.Handler) { p.Router.Mount(p.prefix+pattern, h) }

func (p prefixed) Handle(pattern string, h http.Handler) { p.Router.Handle(p.prefix+pattern, h) }

func (p prefixed) HandleFunc(pattern string, h http.HandlerFunc) {
	p.Router.HandleFunc(p.prefix+pattern, h)
}

func (p prefixed) Method(method, pattern string, h http.Handler) {
	p.Router.Method(method, p.prefix+pattern, h)
}

func (p prefixed) MethodFunc(method, pattern string, h http.HandlerFunc) {
	p.Router.MethodFunc(method, p.prefix+pattern, h)
}

func (p prefixed) Connect(pattern string, h http.HandlerFunc) { p.Router.Connect(p.prefix+pattern, h) }
func (p prefixed) Delete(pattern string, h http.HandlerFunc)  { p.Router.Delete(p.prefix+pattern, h) }
func (p prefixed) Get(pattern string, h http.HandlerFunc)     { p.Router.Get(p.prefix+pattern, h) }
func (p prefixed) Head(pattern string, h http.HandlerFunc)    { p.Router.Head(p.prefix+pattern, h) }
func (p prefixed) Options(pattern string, h http.HandlerFunc) { p.Router.Options(p.prefix+pattern, h) }
func (p prefixed) Patch(pattern string, h http.HandlerFunc)   { p.Router.Patch(p.prefix+pattern, h) }
func (p prefixed) Post(pattern string, h http.HandlerFunc)    { p.Router.Post(p.prefix+pattern, h) }
func (p prefixed) Put(pattern string, h http.HandlerFunc)     { p.Router.Put(p.prefix+pattern, h) }
func (p prefixed) Query(pattern string, h http.HandlerFunc)   { p.Router.Query(p.prefix+pattern, h) }
func (p prefixed) Trace(pattern string, h http.HandlerFunc)   { p.Router.Trace(p.prefix+pattern, h) }

// NotFound and MethodNotAllowed would set Router's own handlers, for
// routes outside the prefix too.
func (p prefixed) NotFound(http.HandlerFunc) {
	panic("rest: NotFound on a prefixed router")
}

func (p prefixed) MethodNotAllowed(http.HandlerFunc) {
	panic("rest: MethodNotAllowed on a prefixed router")
}
