package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"mime"
	"net/http"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// decodeJSON reads a JSON object body into dst (a pointer to a struct with
// json tags; fields tagged required:"true" must be present). It checks the
// content type, the JSON (one value, no duplicate names), each field's type
// and that the body has no field dst does not declare (extra_forbidden;
// fields of type any, such as an invoice payload, take any object), and
// when anything is wrong it also runs validate, so that every problem is
// reported at once. With no type problems it returns nil and leaves the
// semantic checks to the application.
//
// An optional field (no required tag) sent as null is taken as absent.
func decodeJSON(r *http.Request, dst any, validate func(*model.Problems)) error {
	if err := checkContentType(r); err != nil {
		return err
	}
	raw, err := readBody(r)
	if err != nil {
		return err
	}
	if decodeFlat(raw, dst) {
		return nil
	}
	return decodeBody(raw, dst, validate)
}

// decodeBody is decodeJSON after the content type check and the read of
// the body raw, without decodeFlat: the path that reports every problem.
func decodeBody(raw []byte, dst any, validate func(*model.Problems)) error {
	obj, err := parseObject(raw)
	if err != nil {
		return err
	}
	var p model.Problems
	v := reflect.ValueOf(dst).Elem()
	assignStruct(&p, obj, v, nil)
	checkExtra(&p, obj, v.Type(), nil)
	if p.Len() == 0 {
		return nil
	}
	list := p.List()
	if validate != nil {
		var more model.Problems
		validate(&more)
		for _, f := range more.List() {
			if !overlaps(list, f.Loc) {
				list = append(list, f)
			}
		}
	}
	// Report in the order the fields are declared, as a reader expects.
	order := fieldOrderOf(reflect.TypeOf(dst).Elem())
	sort.SliceStable(list, func(i, j int) bool { return locLess(order, list[i].Loc, list[j].Loc) })
	var out model.Problems
	out.AddAll([]any{"body"}, list)
	return out.Err()
}

// decodeFlat is decodeJSON's fast path for a request type whose fields
// are all strings (an IRN request): it reads raw straight into dst, with
// no map in between, when raw is exactly what decodeJSON would accept
// without a problem: one object in valid UTF-8, each name a field of dst
// given once with a string value, every required field present. It then
// stores what decodeJSON would and returns true; on anything else it
// returns false with dst untouched, and decodeJSON takes its general path,
// which reports the problems as ever.
func decodeFlat(raw []byte, dst any) bool {
	v := reflect.ValueOf(dst)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return false
	}
	v = v.Elem()
	fields, ok := flatFieldsOf(v.Type())
	if !ok || len(raw) > maxPooledBuffer {
		return false
	}
	sd := strictDecoders.Get().(*strictDecoder)
	defer func() {
		sd.r.Reset(nil)
		sd.dec.Reset(&sd.r)
		strictDecoders.Put(sd)
	}()
	sd.r.Reset(raw)
	sd.dec.Reset(&sd.r) // strict by default: valid UTF-8, no duplicate names
	d := &sd.dec
	if d.PeekKind() != '{' {
		return false
	}
	if _, err := d.ReadToken(); err != nil {
		return false
	}
	var (
		vals [maxFlatFields]string
		seen uint64
	)
	for d.PeekKind() == '"' {
		name, err := d.ReadValue()
		if err != nil {
			return false
		}
		i := flatIndex(fields, name)
		if i < 0 || d.PeekKind() != '"' {
			return false // a name dst does not declare, or not a string
		}
		t, err := d.ReadToken()
		if err != nil {
			return false
		}
		vals[i], seen = t.String(), seen|1<<i
	}
	if _, err := d.ReadToken(); err != nil { // '}', or the error
		return false
	}
	if _, err := d.ReadToken(); err != io.EOF {
		return false
	}
	for i, f := range fields {
		if f.required && seen&(1<<i) == 0 {
			return false
		}
	}
	for i, f := range fields {
		if seen&(1<<i) != 0 {
			v.Field(f.index).SetString(vals[i])
		}
	}
	return true
}

// maxFlatFields bounds the fields of a type decodeFlat reads.
const maxFlatFields = 16

var flatCache sync.Map // reflect.Type -> []structField, or nil when not flat

// flatFieldsOf returns the fields of the struct type t when decodeFlat can
// read it: at most maxFlatFields fields, each of kind string, none
// embedded.
func flatFieldsOf(t reflect.Type) ([]structField, bool) {
	if v, ok := flatCache.Load(t); ok {
		f := v.([]structField)
		return f, f != nil
	}
	fields := fieldsOf(t)
	flat := len(fields) > 0 && len(fields) <= maxFlatFields
	for _, f := range fields {
		if f.embedded || t.Field(f.index).Type.Kind() != reflect.String {
			flat = false
		}
	}
	if !flat {
		fields = nil
	}
	flatCache.Store(t, fields)
	return fields, flat
}

// flatIndex is the position in fields of the field named by raw (a
// quoted JSON name as jsontext read it), or -1. A name with escapes never
// matches: decodeJSON's general path reads it.
func flatIndex(fields []structField, raw []byte) int {
	if len(raw) < 2 {
		return -1
	}
	name := raw[1 : len(raw)-1]
	for i, f := range fields {
		if string(name) == f.name {
			return i
		}
	}
	return -1
}

// overlaps reports whether a problem was already recorded at loc, above it
// or below it, so that one bad value is reported once.
func overlaps(list []model.FieldError, loc []any) bool {
	for _, f := range list {
		n := min(len(f.Loc), len(loc))
		same := true
		for i := 0; i < n; i++ {
			if f.Loc[i] != loc[i] {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

// locLess orders locations by field declaration, then by index; fields dst
// does not declare come last, by name.
func locLess(order map[string]int, a, b []any) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) < len(b)
	}
	ha, _ := a[0].(string)
	hb, _ := b[0].(string)
	oa, known := order[ha]
	if !known {
		oa = len(order)
	}
	ob, known := order[hb]
	if !known {
		ob = len(order)
	}
	if oa != ob {
		return oa < ob
	}
	if ha != hb {
		return ha < hb
	}
	for k := 1; k < len(a) && k < len(b); k++ {
		ia, aInt := a[k].(int)
		ib, bInt := b[k].(int)
		if aInt && bInt && ia != ib {
			return ia < ib
		}
	}
	return false
}

// fieldOrder maps JSON field names to their declaration order.
func fieldOrder(t reflect.Type) map[string]int {
	out := map[string]int{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for _, f := range fieldsOf(t) {
			if f.embedded {
				walk(t.Field(f.index).Type)
				continue
			}
			out[f.name] = len(out)
		}
	}
	walk(t)
	return out
}

// checkContentType accepts a body declared as JSON (application/json or
// any application/*+json, in UTF-8, the only charset JSON has) or not
// declared at all; anything else, such as the form encoding curl sends
// with -d, is unsupported_media_type (415).
func checkContentType(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	if ct == "" || ct == "application/json" {
		return nil // the common cases, without parsing
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err == nil {
		isJSON := mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
		cs, hasCharset := params["charset"]
		if isJSON && (!hasCharset || strings.EqualFold(cs, "utf-8") || strings.EqualFold(cs, "utf8")) {
			return nil
		}
	}
	return model.Errorf(model.CodeUnsupportedMediaType,
		"Content-Type %q is not supported: send the body as JSON with Content-Type: application/json", truncate(ct, 100))
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// readBody reads the whole body, which the body-limit middleware bounds.
func readBody(r *http.Request) ([]byte, error) {
	b, err := readAll(r.Body, r.ContentLength)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) && r.Context().Value(bodyLimitKey{}) != nil {
			return nil, tooLarge(mbe.Limit)
		}
		if errors.As(err, &mbe) {
			return nil, &model.Error{Code: model.CodeInvalid, Message: "request body too large",
				Fields: []model.FieldError{{Loc: []any{"body"}, Msg: "Request body exceeds " + strconv.FormatInt(mbe.Limit, 10) + " bytes", Type: model.ProblemValueError}}}
		}
		return nil, model.Wrap(model.CodeInvalid, err, "cannot read request body")
	}
	return b, nil
}

// readAll is io.ReadAll with a first buffer of the announced size (plus
// one byte to see the end), when there is one, so that a small body costs
// one small allocation.
func readAll(body io.Reader, size int64) ([]byte, error) {
	if size <= 0 || size > 1<<20 {
		return io.ReadAll(body)
	}
	b := make([]byte, 0, size+1)
	for {
		n, err := body.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) { // longer than announced: let ReadAll finish
			rest, err := io.ReadAll(body)
			return append(b, rest...), err
		}
	}
}

// parseObject parses raw as one JSON object, numbers kept as json.Number.
func parseObject(raw []byte) (map[string]any, error) {
	v, err := parseJSON(raw)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, model.Invalid(model.ProblemDictType, "Input should be a valid dictionary or object", "body")
	}
	return obj, nil
}

// parseJSON parses raw as exactly one JSON value in which no object has a
// name twice.
func parseJSON(raw []byte) (any, error) {
	if v, ok := parseStrict(raw); ok {
		return v, nil
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, model.Invalid(model.ProblemMissing, "Field required", "body")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, jsonError(err, int64(len(raw)))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, model.Invalid(model.ProblemJSONInvalid, "JSON decode error: unexpected data after the JSON value", "body", int(dec.InputOffset()))
	}
	if err := duplicateName(raw, v); err != nil {
		return nil, err
	}
	return v, nil
}

// strictDecoder is a pooled jsontext decoder with its reader.
type strictDecoder struct {
	r   bytes.Reader
	dec jsontext.Decoder
}

var strictDecoders = sync.Pool{New: func() any { return new(strictDecoder) }}

// parseStrict is parseJSON's fast path for the common, well-formed body:
// one JSON value in valid UTF-8 with no name twice in an object, read in
// one pass (encoding/json then a second scan for duplicates cost twice
// that). It gives the same value encoding/json does (objects as
// map[string]any, arrays as []any, numbers as json.Number). On anything
// else it returns false and parseJSON takes the slow path, which words the
// error exactly or, for invalid UTF-8, replaces it as encoding/json does.
func parseStrict(raw []byte) (any, bool) {
	var sd *strictDecoder
	if len(raw) <= maxPooledBuffer {
		sd = strictDecoders.Get().(*strictDecoder)
		defer func() {
			sd.r.Reset(nil)
			sd.dec.Reset(&sd.r)
			strictDecoders.Put(sd)
		}()
	} else { // a large body must not pin its buffer in the pool
		sd = new(strictDecoder)
	}
	sd.r.Reset(raw)
	sd.dec.Reset(&sd.r) // strict by default: valid UTF-8, no duplicate names
	v, err := readStrict(&sd.dec)
	if err != nil {
		return nil, false
	}
	if _, err := sd.dec.ReadToken(); err != io.EOF {
		return nil, false
	}
	return v, true
}

// readStrict reads the next value of d as encoding/json's Decode into an
// any with UseNumber would.
func readStrict(d *jsontext.Decoder) (any, error) {
	switch d.PeekKind() {
	case '{':
		if _, err := d.ReadToken(); err != nil {
			return nil, err
		}
		m := map[string]any{}
		for d.PeekKind() == '"' {
			raw, err := d.ReadValue()
			if err != nil {
				return nil, err
			}
			name, err := nameOf(raw) // before the next read voids raw
			if err != nil {
				return nil, err
			}
			v, err := readStrict(d)
			if err != nil {
				return nil, err
			}
			m[name] = v
		}
		if _, err := d.ReadToken(); err != nil { // '}', or the error
			return nil, err
		}
		return m, nil
	case '[':
		if _, err := d.ReadToken(); err != nil {
			return nil, err
		}
		a := make([]any, 0)
		for k := d.PeekKind(); k != ']' && k != 0; k = d.PeekKind() {
			v, err := readStrict(d)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		if _, err := d.ReadToken(); err != nil { // ']', or the error
			return nil, err
		}
		return a, nil
	case '0':
		v, err := d.ReadValue()
		if err != nil {
			return nil, err
		}
		return json.Number(string(v)), nil
	case '"':
		t, err := d.ReadToken()
		if err != nil {
			return nil, err
		}
		return t.String(), nil
	case 't', 'f':
		t, err := d.ReadToken()
		if err != nil {
			return nil, err
		}
		return t.Bool(), nil
	case 'n':
		_, err := d.ReadToken()
		return nil, err
	default: // an error, or a closing delimiter out of place
		_, err := d.ReadToken()
		if err == nil {
			err = errors.New("unexpected token")
		}
		return nil, err
	}
}

// nameOf is the object name raw (quoted, valid) as a string: for a name
// a request type declares, that type's own string, without an allocation.
func nameOf(raw jsontext.Value) (string, error) {
	b := raw[1 : len(raw)-1]
	if bytes.IndexByte(b, '\\') >= 0 {
		u, err := jsontext.AppendUnquote(nil, raw)
		return string(u), err
	}
	if m := knownNames.Load(); m != nil {
		if s, ok := (*m)[string(b)]; ok {
			return s, nil
		}
	}
	return string(b), nil
}

// knownNames holds the JSON names of the request types decoded so far
// (fieldsOf adds them): a set bounded by the code, never by requests.
var (
	knownNames   atomic.Pointer[map[string]string]
	knownNamesMu sync.Mutex
)

func addKnownNames(names []string) {
	knownNamesMu.Lock()
	defer knownNamesMu.Unlock()
	m := map[string]string{}
	if old := knownNames.Load(); old != nil {
		for k, v := range *old {
			m[k] = v
		}
	}
	for _, n := range names {
		m[n] = n
	}
	knownNames.Store(&m)
}

// allowInvalidUTF8 keeps the duplicate scan going over bytes that are not
// UTF-8, which encoding/json has already replaced with U+FFFD.
var allowInvalidUTF8 = jsontext.AllowInvalidUTF8(true)

// duplicateName reports the first object name given twice in raw (whose
// parsed value is v) as value_error at that name: encoding/json would keep
// the last value silently, while another reader may keep the first, so the
// request is ambiguous. This holds inside an invoice payload too.
func duplicateName(raw []byte, v any) error {
	if jsontext.Value(raw).IsValid(allowInvalidUTF8) {
		return nil // the common case: pooled, without copying raw
	}
	dec := jsontext.NewDecoder(bytes.NewReader(raw), allowInvalidUTF8)
	err := dec.SkipValue()
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) || !errors.Is(se.Err, jsontext.ErrDuplicateName) {
		return nil // raw parsed above; only duplicates are looked for here
	}
	loc := []any{"body"}
	cur := v
	for tok := range se.JSONPointer.Tokens() {
		switch t := cur.(type) {
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(t) {
				return model.Invalid(model.ProblemValueError, "Value error, duplicate object name", loc...)
			}
			loc, cur = append(loc, i), t[i]
		case map[string]any:
			loc, cur = append(loc, tok), t[tok]
		}
	}
	name := ""
	if s, ok := loc[len(loc)-1].(string); ok && len(loc) > 1 {
		name = strconv.Quote(s) + " "
	}
	return model.Invalid(model.ProblemValueError, "Value error, the name "+name+"appears more than once in this object", loc...)
}

func jsonError(err error, offset int64) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		offset = se.Offset
	}
	msg := "JSON decode error"
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		msg += ": unexpected end of input"
	} else if se != nil {
		msg += ": " + se.Error()
	}
	return model.Invalid(model.ProblemJSONInvalid, msg, "body", int(offset))
}

// parseInteger reads a JSON number that is an integer: 1700000000, and
// also 1700000000.0 or 1.7e9, whose value is whole (as Pydantic's lax mode
// takes them), up to 2^53 in those forms; 1.5 or a number past int64 is an
// error.
func parseInteger(n json.Number) (int64, error) {
	if i, err := strconv.ParseInt(n.String(), 10, 64); err == nil {
		return i, nil
	}
	f, err := strconv.ParseFloat(n.String(), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, errors.New("not an integer")
	}
	return int64(f), nil
}

var (
	uuidType = reflect.TypeOf(uuid.UUID{})
	anyType  = reflect.TypeOf((*any)(nil)).Elem()
	// nullableIntType is a partial update's field where null is a value
	// (back to the default), not "left out".
	nullableIntType = reflect.TypeOf(model.NullableInt{})
)

// structField is what decoding needs of a struct field, worked out once per
// type (see fieldsOf).
type structField struct {
	index    int
	embedded bool // an anonymous struct whose fields are the parent's
	name     string
	boxed    any // name as a location element, boxed once
	required bool
}

var fieldCache sync.Map // reflect.Type -> []structField

// fieldsOf lists the decodable fields of the struct type t.
func fieldsOf(t reflect.Type) []structField {
	if v, ok := fieldCache.Load(t); ok {
		return v.([]structField)
	}
	var (
		out   []structField
		names []string
	)
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, structField{index: i, embedded: true})
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		out = append(out, structField{index: i, name: name, boxed: name, required: f.Tag.Get("required") == "true"})
		names = append(names, name)
	}
	addKnownNames(names)
	fieldCache.Store(t, out)
	return out
}

// assignStruct copies obj's fields into the struct v, checking presence and
// types; loc is the location of v.
func assignStruct(p *model.Problems, obj map[string]any, v reflect.Value, loc []any) {
	// One location buffer for every field: Problems.Add copies what it keeps.
	floc := make([]any, len(loc)+1)
	copy(floc, loc)
	for _, f := range fieldsOf(v.Type()) {
		if f.embedded {
			assignStruct(p, obj, v.Field(f.index), loc)
			continue
		}
		floc[len(loc)] = f.boxed
		val, present := obj[f.name]
		if fv := v.Field(f.index); present && fv.Type() == nullableIntType {
			var n int
			before := p.Len()
			if val != nil {
				assignValue(p, val, reflect.ValueOf(&n).Elem(), floc)
			}
			// Given, even when refused: the refusal names it, not a
			// missing field.
			out := model.NullableInt{Set: true}
			if val != nil && p.Len() == before {
				out.Value = &n
			}
			fv.Set(reflect.ValueOf(out))
			continue
		}
		if !present || (val == nil && !f.required) {
			if f.required {
				p.Add(model.ProblemMissing, "Field required", floc...)
			}
			continue
		}
		assignValue(p, val, v.Field(f.index), floc)
	}
}

// checkExtra records extra_forbidden at every name of obj that the struct
// type t does not declare, in name order.
func checkExtra(p *model.Problems, obj map[string]any, t reflect.Type, loc []any) {
	known := fieldOrderOf(t)
	var extra []string
	for name := range obj {
		if _, ok := known[name]; !ok {
			extra = append(extra, name)
		}
	}
	sort.Strings(extra)
	for _, name := range extra {
		p.Add(model.ProblemExtraForbidden, "Extra inputs are not permitted", append(append([]any(nil), loc...), name)...)
	}
}

var orderCache sync.Map // reflect.Type -> map[string]int

// fieldOrderOf is fieldOrder, worked out once per type.
func fieldOrderOf(t reflect.Type) map[string]int {
	if v, ok := orderCache.Load(t); ok {
		return v.(map[string]int)
	}
	m := fieldOrder(t)
	orderCache.Store(t, m)
	return m
}

// assignValue stores val into v when its JSON type fits v's Go type.
func assignValue(p *model.Problems, val any, v reflect.Value, loc []any) {
	if v.Type() == anyType {
		if val != nil {
			v.Set(reflect.ValueOf(val))
		}
		return
	}
	if v.Kind() == reflect.Pointer {
		if val == nil {
			return // null is "not given" for optional fields
		}
		ptr := reflect.New(v.Type().Elem())
		before := p.Len()
		assignValue(p, val, ptr.Elem(), loc)
		if p.Len() == before {
			v.Set(ptr)
		}
		return
	}
	if v.Type() == uuidType {
		s, ok := val.(string)
		if !ok {
			p.Add(model.ProblemUUIDParsing, "Input should be a valid UUID", loc...)
			return
		}
		id, err := model.ParseUUID(s)
		if err != nil {
			p.Add(model.ProblemUUIDParsing, "Input should be a valid UUID", loc...)
			return
		}
		v.Set(reflect.ValueOf(id))
		return
	}
	switch v.Kind() {
	case reflect.String:
		s, ok := val.(string)
		if !ok {
			p.Add(model.ProblemStringType, "Input should be a valid string", loc...)
			return
		}
		v.SetString(s)
	case reflect.Bool:
		b, ok := val.(bool)
		if !ok {
			p.Add(model.ProblemBoolType, "Input should be a valid boolean", loc...)
			return
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int64, reflect.Int32:
		n, ok := val.(json.Number)
		var i int64
		var err error
		if ok {
			i, err = parseInteger(n)
		}
		if !ok || err != nil || v.OverflowInt(i) {
			p.Add(model.ProblemIntType, "Input should be a valid integer", loc...)
			return
		}
		v.SetInt(i)
	case reflect.Slice:
		arr, ok := val.([]any)
		if !ok {
			p.Add(model.ProblemListType, "Input should be a valid list", loc...)
			return
		}
		out := reflect.MakeSlice(v.Type(), len(arr), len(arr))
		for i, el := range arr {
			assignValue(p, el, out.Index(i), append(append([]any(nil), loc...), i))
		}
		v.Set(out)
	case reflect.Struct:
		m, ok := val.(map[string]any)
		if !ok {
			p.Add(model.ProblemDictType, "Input should be a valid dictionary or object", loc...)
			return
		}
		assignStruct(p, m, v, loc)
		checkExtra(p, m, v.Type(), loc)
	case reflect.Map:
		m, ok := val.(map[string]any)
		if !ok {
			p.Add(model.ProblemDictType, "Input should be a valid dictionary or object", loc...)
			return
		}
		v.Set(reflect.ValueOf(m))
	default:
		p.Add(model.ProblemValueError, "unsupported field", loc...)
	}
}
