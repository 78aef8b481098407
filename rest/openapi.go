package rest

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/einvoice-ng/einvoice/model"
)

// openAPISource is the one hand-written description of the API (v2).
//
//go:embed openapi/openapi.yaml
var openAPISource []byte

var openAPIDocs = sync.OnceValues(buildOpenAPI)

// OpenAPI returns the OpenAPI 3.1 document of an API version, "v2" or
// "v1", as JSON.
func OpenAPI(version string) ([]byte, error) {
	docs, err := openAPIDocs()
	if err != nil {
		return nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	doc, ok := docs[version]
	if !ok {
		return nil, model.NotFound("API version " + version)
	}
	return doc, nil
}

// buildOpenAPI reads the source, adds what operations share and derives v1.
func buildOpenAPI() (map[string][]byte, error) {
	var src any
	if err := yaml.Unmarshal(openAPISource, &src); err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	v2, ok := stringKeys(src).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("openapi.yaml: not a mapping")
	}
	if err := addNRSInvoice(v2); err != nil {
		return nil, err
	}
	shareOperationParts(v2)
	v2JSON, err := json.Marshal(v2)
	if err != nil {
		return nil, err
	}
	var v1 map[string]any
	if err := json.Unmarshal(v2JSON, &v1); err != nil { // a deep copy
		return nil, err
	}
	legacyV1(v1)
	// Deprecation, Sunset and Link are v1's headers: v2 answers without them.
	headers, _ := v2["components"].(map[string]any)["headers"].(map[string]any)
	for _, h := range v1Headers {
		delete(headers, h)
	}
	if unused := unusedComponents(v2); len(unused) > 0 {
		return nil, fmt.Errorf("openapi.yaml: unused components %v", unused)
	}
	if v2JSON, err = json.Marshal(v2); err != nil {
		return nil, err
	}
	v1JSON, err := json.Marshal(v1)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{"v2": v2JSON, "v1": v1JSON}, nil
}

// stringKeys turns YAML mappings with non-string keys (response codes)
// into JSON objects.
func stringKeys(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = stringKeys(e)
		}
		return t
	case map[any]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[fmt.Sprint(k)] = stringKeys(e)
		}
		return out
	case []any:
		for i, e := range t {
			t[i] = stringKeys(e)
		}
		return t
	}
	return v
}

var operationMethods = []string{"get", "put", "post", "delete", "patch"}

// operations calls fn for every operation of doc.
func operations(doc map[string]any, fn func(path, method string, op map[string]any)) {
	paths, _ := doc["paths"].(map[string]any)
	for _, path := range slices.Sorted(maps.Keys(paths)) {
		item, _ := paths[path].(map[string]any)
		for _, m := range operationMethods {
			if op, ok := item[m].(map[string]any); ok {
				fn(path, m, op)
			}
		}
	}
}

func ref(name string) map[string]any { return map[string]any{"$ref": name} }

// securedBy reports whether op requires the named security scheme.
func securedBy(op map[string]any, scheme string) bool {
	reqs, _ := op["security"].([]any)
	for _, r := range reqs {
		if m, ok := r.(map[string]any); ok {
			if _, ok := m[scheme]; ok {
				return true
			}
		}
	}
	return false
}

// shareOperationParts adds what every operation has in common, so that the
// source states it once: X-Request-ID on every response and a 500; the 415
// of operations that take a body; on authenticated POSTs the Idempotency-Key parameter, Idempotent-Replayed on
// successes and the 409 and 422 it can cause; on API-key routes the
// RateLimit-* headers and the 429.
func shareOperationParts(doc map[string]any) {
	operations(doc, func(path, method string, op map[string]any) {
		responses, _ := op["responses"].(map[string]any)
		if responses == nil {
			responses = map[string]any{}
			op["responses"] = responses
		}
		keyed := securedBy(op, "clientId")
		idempotent := method == "post" && (keyed || securedBy(op, "bearerAuth"))
		if idempotent {
			params, _ := op["parameters"].([]any)
			op["parameters"] = append(params, ref("#/components/parameters/IdempotencyKey"))
			setDefault(responses, "409", ref("#/components/responses/Conflict"))
			setDefault(responses, "422", ref("#/components/responses/ValidationError"))
		}
		if keyed {
			setDefault(responses, "429", ref("#/components/responses/RateLimited"))
		}
		if _, body := op["requestBody"]; body {
			setDefault(responses, "415", ref("#/components/responses/UnsupportedMediaType"))
		}
		if path != "/health" && path != "/ready" {
			setDefault(responses, "500", ref("#/components/responses/InternalError"))
		}
		for code, r := range responses {
			resp, _ := r.(map[string]any)
			if _, isRef := resp["$ref"]; isRef || resp == nil {
				continue
			}
			// An answer of the HTTP server itself, before the router: none
			// of the router's headers.
			if resp["x-before-routing"] == true {
				delete(resp, "x-before-routing")
				continue
			}
			headers, _ := resp["headers"].(map[string]any)
			if headers == nil {
				headers = map[string]any{}
				resp["headers"] = headers
			}
			headers["X-Request-ID"] = ref("#/components/headers/X-Request-ID")
			if keyed {
				for _, h := range []string{"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} {
					headers[h] = ref("#/components/headers/" + h)
				}
			}
			if idempotent && strings.HasPrefix(code, "2") {
				headers["Idempotent-Replayed"] = ref("#/components/headers/Idempotent-Replayed")
			}
		}
	})
	// Shared responses are referenced, so they carry X-Request-ID themselves.
	components, _ := doc["components"].(map[string]any)
	responses, _ := components["responses"].(map[string]any)
	for _, r := range responses {
		resp := r.(map[string]any)
		headers, _ := resp["headers"].(map[string]any)
		if headers == nil {
			headers = map[string]any{}
			resp["headers"] = headers
		}
		headers["X-Request-ID"] = ref("#/components/headers/X-Request-ID")
	}
}

func setDefault(m map[string]any, k string, v any) {
	if _, ok := m[k]; !ok {
		m[k] = v
	}
}

// legacyV1 turns the v2 document into the v1 one: the /api/v2 operations
// under /api/v1, deprecated, each response with Deprecation, Sunset and
// Link headers.
func legacyV1(doc map[string]any) {
	info := doc["info"].(map[string]any)
	info["title"] = "einvoice API v1 (deprecated)"
	info["version"] = "1"
	info["summary"] = "The deprecated /api/v1 prefix of the einvoice API."
	info["description"] = fmt.Sprintf(
		"`/api/v1/*` routes answer exactly like their `/api/v2/*` twins, plus a `Deprecation` header "+
			"(RFC 9745; deprecated since %s), a `Sunset` header (RFC 8594: %s, after which /api/v1 may stop answering) and a `Link` "+
			"to the v2 twin (`rel=\"successor-version\"`). Move to /api/v2: only the prefix changes. "+
			"Bodies, errors, credentials, idempotency and rate limits are those of v2 (see the v2 document).",
		V1Deprecated.Format("2006-01-02"), V1Sunset.Format("2006-01-02"))
	components := doc["components"].(map[string]any)
	shared, _ := components["responses"].(map[string]any)

	paths := doc["paths"].(map[string]any)
	legacy := map[string]any{}
	for path, item := range paths {
		rest, ok := strings.CutPrefix(path, "/api/v2/")
		if !ok {
			continue
		}
		legacy["/api/v1/"+rest] = item
	}
	doc["paths"] = legacy
	operations(doc, func(path, method string, op map[string]any) {
		op["deprecated"] = true
		if id, ok := op["operationId"].(string); ok {
			op["operationId"] = id + "V1"
		}
		responses := op["responses"].(map[string]any)
		for code, r := range responses {
			resp := r.(map[string]any)
			if target, ok := resp["$ref"].(string); ok {
				// A reference cannot take headers: inline a copy.
				name := strings.TrimPrefix(target, "#/components/responses/")
				resp = deepCopy(shared[name]).(map[string]any)
				responses[code] = resp
			}
			headers, _ := resp["headers"].(map[string]any)
			if headers == nil {
				headers = map[string]any{}
				resp["headers"] = headers
			}
			for _, h := range v1Headers {
				headers[h] = ref("#/components/headers/" + h)
			}
		}
	})
	// Responses are inlined above and /health is not under /api/v1: drop
	// what no v1 operation uses.
	for _, name := range unusedComponents(doc) {
		kind, name, _ := strings.Cut(name, "/")
		delete(components[kind].(map[string]any), name)
	}
}

// v1Headers are the headers only /api/v1 answers carry.
var v1Headers = []string{"Deprecation", "Sunset", "Link"}

// unusedComponents lists the components ("schemas/Name") that nothing
// reachable from the paths and the security requirements refers to, in
// order. Repeated until nothing more goes, as an unused component's own
// references keep others alive.
func unusedComponents(doc map[string]any) []string {
	components, _ := doc["components"].(map[string]any)
	used := map[string]bool{}
	var mark func(v any)
	mark = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			if r, ok := t["$ref"].(string); ok {
				name := strings.TrimPrefix(r, "#/components/")
				if !used[name] {
					used[name] = true
					kind, n, _ := strings.Cut(name, "/")
					section, _ := components[kind].(map[string]any)
					mark(section[n])
				}
			}
			for _, e := range t {
				mark(e)
			}
		case []any:
			for _, e := range t {
				mark(e)
			}
		}
	}
	mark(doc["paths"])
	var out []string
	for _, kind := range slices.Sorted(maps.Keys(components)) {
		if kind == "securitySchemes" {
			continue // used by name in security requirements
		}
		section, _ := components[kind].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(section)) {
			if !used[kind+"/"+name] {
				out = append(out, kind+"/"+name)
			}
		}
	}
	return out
}

func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}

// OpenAPIOperations lists the documented operations of a version as
// "METHOD /path" (chi's pattern syntax), for tests that compare them with
// the routes.
func OpenAPIOperations(version string) ([]string, error) {
	b, err := OpenAPI(version)
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	var out []string
	operations(doc, func(path, method string, _ map[string]any) {
		out = append(out, strings.ToUpper(method)+" "+path)
	})
	slices.Sort(out)
	return out, nil
}

// UnusedComponents lists the components of a document (parsed JSON) that no
// operation uses, as "schemas/Name", for tests.
func UnusedComponents(doc map[string]any) []string { return unusedComponents(doc) }
