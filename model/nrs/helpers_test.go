package nrs

import (
	"bytes"
	"crypto/rsa"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
)

const (
	fixtureDir = "../../testdata/fixtures"
	keysDir    = "../../testdata/keys"
)

func newAuthority(t testing.TB) *Authority {
	t.Helper()
	a, err := New(Options{})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return a
}

// decodeJSON decodes like the transports do: numbers as json.Number.
func decodeJSON(t testing.TB, data []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return v
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return data
}

// loadFixture returns a fresh decoded copy of a fixture.
func loadFixture(t testing.TB, name string) map[string]any {
	t.Helper()
	m, ok := decodeJSON(t, readFile(t, filepath.Join(fixtureDir, name))).(map[string]any)
	if !ok {
		t.Fatalf("%s is not an object", name)
	}
	return m
}

// del marks a field to delete in an edit.
type deleteMarker struct{}

var del = deleteMarker{}

// edit sets (or, with del, removes) the value at a JSON Pointer, creating
// missing objects on the way.
type edit struct {
	path  string
	value any
}

func applyEdits(t testing.TB, doc map[string]any, edits []edit) {
	t.Helper()
	for _, e := range edits {
		segs := strings.Split(strings.TrimPrefix(e.path, "/"), "/")
		var cur any = doc
		for i, seg := range segs {
			last := i == len(segs)-1
			switch c := cur.(type) {
			case map[string]any:
				if last {
					if e.value == del {
						delete(c, seg)
					} else {
						c[seg] = e.value
					}
					continue
				}
				next, ok := c[seg]
				if !ok {
					next = map[string]any{}
					c[seg] = next
				}
				cur = next
			case []any:
				idx, err := strconv.Atoi(seg)
				if err != nil || idx >= len(c) {
					t.Fatalf("edit %s: bad index %q", e.path, seg)
				}
				if last {
					if e.value == del {
						t.Fatalf("edit %s: cannot delete an array element", e.path)
					}
					c[idx] = e.value
					continue
				}
				cur = c[idx]
			default:
				t.Fatalf("edit %s: cannot descend into %T", e.path, cur)
			}
		}
	}
}

// num builds a payload number the way a UseNumber decoder does.
func num(s string) json.Number { return json.Number(s) }

// locOf converts a JSON Pointer to the loc the report must carry: digits
// become ints.
func locOf(path string) []any {
	loc := []any{}
	if path == "" {
		return loc
	}
	for _, seg := range strings.Split(strings.TrimPrefix(path, "/"), "/") {
		if n, err := strconv.Atoi(seg); err == nil {
			loc = append(loc, n)
			continue
		}
		seg = strings.ReplaceAll(seg, "~1", "/")
		seg = strings.ReplaceAll(seg, "~0", "~")
		loc = append(loc, seg)
	}
	return loc
}

func sameLoc(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func allIssues(r *model.ValidationReport) []model.Issue {
	return append(append([]model.Issue{}, r.Errors...), r.Warnings...)
}

// findIssue returns the issue with rule at path, checking that its loc
// matches the path.
func findIssue(t testing.TB, r *model.ValidationReport, rule, path string) (model.Issue, bool) {
	t.Helper()
	for _, is := range allIssues(r) {
		if is.Rule == rule && is.Path == path {
			if !sameLoc(is.Loc, locOf(path)) {
				t.Errorf("issue %s at %s has loc %#v, want %#v", rule, path, is.Loc, locOf(path))
			}
			return is, true
		}
	}
	return model.Issue{}, false
}

func hasRule(r *model.ValidationReport, rule string) bool {
	for _, is := range allIssues(r) {
		if is.Rule == rule {
			return true
		}
	}
	return false
}

func dump(r *model.ValidationReport) string {
	var b strings.Builder
	for _, is := range allIssues(r) {
		b.WriteString("\n  " + string(is.Severity) + " " + is.Rule + " " + is.Path + ": " + is.Message)
	}
	if b.Len() == 0 {
		return " (no issues)"
	}
	return b.String()
}

func validate(t testing.TB, a *Authority, in model.ValidateInput) *model.ValidationReport {
	t.Helper()
	r, err := a.Validate(in)
	if err != nil {
		t.Fatalf("Validate: %v", err)
	}
	return r
}

// testKeys are the committed throwaway keys of testdata/keys.
type testKeys struct {
	private     *rsa.PrivateKey
	public      *rsa.PublicKey
	certificate string
	cryptoKeys  CryptoKeys
}

func loadTestKeys(t testing.TB) testKeys {
	t.Helper()
	priv, err := ParsePrivateKey(string(readFile(t, filepath.Join(keysDir, "private.pem"))))
	if err != nil {
		t.Fatalf("private key: %v", err)
	}
	var ck CryptoKeys
	if err := json.Unmarshal(readFile(t, filepath.Join(keysDir, "crypto_keys.txt")), &ck); err != nil {
		t.Fatalf("crypto_keys.txt: %v", err)
	}
	pub, err := ParsePublicKey(ck.PublicKey)
	if err != nil {
		t.Fatalf("public key: %v", err)
	}
	return testKeys{private: priv, public: pub, certificate: ck.Certificate, cryptoKeys: ck}
}

// problemAt asserts that err is an invalid *model.Error with a problem of
// type typ at loc.
func problemAt(t testing.TB, err error, typ model.ProblemType, loc ...any) {
	t.Helper()
	e := model.AsError(err)
	if e == nil || e.Code != model.CodeInvalid {
		t.Fatalf("error = %v, want an invalid *model.Error", err)
	}
	for _, f := range e.Fields {
		if f.Type == typ && sameLoc(f.Loc, loc) {
			return
		}
	}
	t.Fatalf("error fields = %+v, want type %s at %v", e.Fields, typ, loc)
}
