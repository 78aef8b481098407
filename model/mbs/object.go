package mbs

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
)

// object is a leniently read JSON object: where NRS's field types are not
// published, strings, numbers and booleans are all read as text.
type object map[string]json.RawMessage

func fields(raw json.RawMessage) (object, bool) {
	var o object
	if err := json.Unmarshal(raw, &o); err != nil || o == nil {
		return object{}, false
	}
	return o, true
}

// str returns the first of keys that holds a value, as text.
func (o object) str(keys ...string) string {
	for _, k := range keys {
		v, ok := o[k]
		if !ok {
			continue
		}
		v = bytes.TrimSpace(v)
		if len(v) == 0 || bytes.Equal(v, []byte("null")) {
			continue
		}
		var s string
		if json.Unmarshal(v, &s) == nil {
			return s
		}
		if v[0] != '{' && v[0] != '[' {
			return string(v) // a number or a boolean, as written
		}
	}
	return ""
}

func (o object) bool(keys ...string) bool {
	b, err := strconv.ParseBool(strings.TrimSpace(o.str(keys...)))
	return err == nil && b
}

func (o object) int(keys ...string) int {
	n, err := strconv.ParseFloat(strings.TrimSpace(o.str(keys...)), 64)
	if err != nil {
		return 0
	}
	return int(n)
}

func (o object) raw(key string) json.RawMessage {
	v := bytes.TrimSpace(o[key])
	if len(v) == 0 || bytes.Equal(v, []byte("null")) {
		return nil
	}
	return json.RawMessage(v)
}

// list reads a JSON list: the value itself, or the list under one of keys
// when the value is an object.
func list(raw json.RawMessage, keys ...string) ([]json.RawMessage, bool) {
	var out []json.RawMessage
	if err := json.Unmarshal(raw, &out); err == nil {
		return out, true
	}
	f, ok := fields(raw)
	if !ok {
		return nil, false
	}
	for _, k := range keys {
		if err := json.Unmarshal(f[k], &out); err == nil && out != nil {
			return out, true
		}
	}
	return nil, false
}

// pathSegment escapes an id (IRN, UUID, TIN) for a URL path. They are
// letters, digits and hyphens, so this only matters for hostile input.
func pathSegment(s string) string { return url.PathEscape(s) }

// Paging is the paging of MBS's searches: size (per page), page (from 1),
// sort_by and sort_direction_desc. Zero values are left out of the query.
type Paging struct {
	Size     int
	Page     int
	SortBy   string
	SortDesc *bool
}

func (p Paging) set(q url.Values) {
	if p.Size > 0 {
		q.Set("size", strconv.Itoa(p.Size))
	}
	if p.Page > 0 {
		q.Set("page", strconv.Itoa(p.Page))
	}
	if p.SortBy != "" {
		q.Set("sort_by", p.SortBy)
	}
	if p.SortDesc != nil {
		q.Set("sort_direction_desc", strconv.FormatBool(*p.SortDesc))
	}
}

// Page is one page of a search. NRS does not publish the shape of its
// pages: Items are read from the data itself when it is a list, else from
// "items", "data", "content" or "results"; the counts from "total"
// ("total_count", "count") and "totalPages" ("total_pages"). Data keeps the
// whole data as sent.
type Page[T any] struct {
	Items      []T
	Page       int
	Size       int
	Total      int
	TotalPages int
	Data       json.RawMessage
}

var pageItemKeys = []string{"items", "data", "content", "results"}

// readPage reads a page whose items item builds.
func readPage[T any](data json.RawMessage, item func(json.RawMessage) T) (Page[T], bool) {
	items, ok := list(data, pageItemKeys...)
	if !ok {
		return Page[T]{}, false
	}
	p := Page[T]{Items: make([]T, 0, len(items)), Data: data}
	for _, it := range items {
		p.Items = append(p.Items, item(it))
	}
	f, _ := fields(data)
	p.Page, p.Size = f.int("page"), f.int("size")
	p.Total, p.TotalPages = f.int("total", "total_count", "count"), f.int("totalPages", "total_pages")
	if p.Total == 0 {
		p.Total = len(p.Items)
	}
	return p, true
}
