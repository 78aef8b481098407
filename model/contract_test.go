package model_test

import (
	"bufio"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
)

// docTable is one request table of docs/interface.md.
type docTable struct {
	name string
	head []string
	rows [][]string
}

// readInterfaceTables reads the request tables of the interface document:
// every "### Title (Name)" section followed by a table whose first column
// is Field.
func readInterfaceTables(t *testing.T) []docTable {
	t.Helper()
	f, err := os.Open("../docs/interface.md")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	heading := regexp.MustCompile(`^### .*\((\w+)\)\s*$`)
	var out []docTable
	var cur *docTable
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if m := heading.FindStringSubmatch(line); m != nil {
			out = append(out, docTable{name: m[1]})
			cur = &out[len(out)-1]
			continue
		}
		if strings.HasPrefix(line, "#") {
			cur = nil
			continue
		}
		if cur == nil || !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch {
		case cur.head == nil:
			cur.head = cells
		case strings.HasPrefix(cells[0], "---"):
		default:
			cur.rows = append(cur.rows, cells)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	// Keep request tables (the validation error body is a response).
	return slices.DeleteFunc(out, func(d docTable) bool {
		return len(d.head) < 3 || d.head[0] != "Field" || d.head[2] != "Required"
	})
}

var (
	lengthCell = regexp.MustCompile(`^length (\d+) to (\d+)$`)
	enumCell   = regexp.MustCompile(`^one of ([\w, ]+); default (\w+)$`)
)

// TestRequestsFollowTheInterfaceDocument checks model.Requests, from which
// validation, the conformance tests and the documentation checks are
// built, against the tables of docs/interface.md: the same bodies, fields,
// types, required flags, lengths, allowed values and defaults. Fields
// einvoice adds (Extension) are left out, and must be optional: a request
// the document allows is never refused for lacking one.
func TestRequestsFollowTheInterfaceDocument(t *testing.T) {
	tables := readInterfaceTables(t)
	if len(tables) != len(model.Requests) {
		t.Fatalf("the document has %d request tables, model.Requests %d", len(tables), len(model.Requests))
	}
	for _, req := range model.Requests {
		for _, f := range req.Fields {
			if f.Extension && f.Required {
				t.Errorf("%s.%s: einvoice's own field is required", req.Name, f.Name)
			}
		}
	}
	for i, tab := range tables {
		req := model.Requests[i]
		req.Fields = slices.DeleteFunc(slices.Clone(req.Fields), func(f model.RequestField) bool { return f.Extension })
		if req.Name != tab.name {
			t.Fatalf("request %d: document %s, model %s", i, tab.name, req.Name)
		}
		if len(req.Fields) != len(tab.rows) {
			t.Errorf("%s: document has %d fields, model %d", tab.name, len(tab.rows), len(req.Fields))
			continue
		}
		for j, row := range tab.rows {
			f := req.Fields[j]
			where := tab.name + "." + row[0]
			if f.Name != row[0] {
				t.Errorf("%s: model field %d is %s", where, j, f.Name)
				continue
			}
			wantKind := map[string]model.FieldKind{
				"string": model.KindString, "string, UUID": model.KindUUID, "array of string": model.KindStrings,
				"object": model.KindObject, "integer or null": model.KindIntegerOrNull,
			}[row[1]]
			if wantKind == "" || f.Kind != wantKind {
				t.Errorf("%s: type %q, model %q", where, row[1], f.Kind)
			}
			if want := row[2] == "yes"; f.Required != want || (row[2] != "yes" && row[2] != "no") {
				t.Errorf("%s: required %q, model %v", where, row[2], f.Required)
			}
			var length *model.Length
			var enum []string
			def := ""
			if len(row) > 3 {
				cell := row[3]
				switch col := tab.head[3]; {
				case lengthCell.MatchString(cell):
					m := lengthCell.FindStringSubmatch(cell)
					lo, _ := strconv.Atoi(m[1])
					hi, _ := strconv.Atoi(m[2])
					length = &model.Length{Min: lo, Max: hi}
				case enumCell.MatchString(cell):
					m := enumCell.FindStringSubmatch(cell)
					enum = strings.Split(m[1], ", ")
					def = m[2]
				case col == "Default":
					if cell != "none" {
						def = cell
					}
				case col == "Allowed values" && cell != "any object" && cell != "none stated":
					enum = strings.Split(cell, ", ")
				}
			}
			if (length == nil) != (f.Length == nil) || (length != nil && *length != *f.Length) {
				t.Errorf("%s: length %v, model %v", where, length, f.Length)
			}
			if !slices.Equal(enum, f.Enum) {
				t.Errorf("%s: allowed values %v, model %v", where, enum, f.Enum)
			}
			if def != f.Default {
				t.Errorf("%s: default %q, model %q", where, def, f.Default)
			}
		}
	}
}

// TestLimitsTable checks the document's Limits table against the lengths
// the requests use.
func TestLimitsTable(t *testing.T) {
	raw, err := os.ReadFile("../docs/interface.md")
	if err != nil {
		t.Fatal(err)
	}
	_, limits, ok := strings.Cut(string(raw), "## Limits")
	if !ok {
		t.Fatal("no Limits section")
	}
	row := regexp.MustCompile(`(?m)^\| ([^|]+) \| (\d+) to (\d+) characters \|$`)
	want := map[string]model.Length{
		"email": model.EmailLength, "password": model.PasswordLength,
		"organization_name, name (organization, project)": model.NameLength,
		"organization_slug, slug":                         model.SlugLength, "key_name": model.KeyNameLength,
	}
	rows := row.FindAllStringSubmatch(limits, -1)
	if len(rows) != len(want) {
		t.Fatalf("Limits table has %d rows, want %d", len(rows), len(want))
	}
	for _, m := range rows {
		lo, _ := strconv.Atoi(m[2])
		hi, _ := strconv.Atoi(m[3])
		if l, ok := want[m[1]]; !ok || l != (model.Length{Min: lo, Max: hi}) {
			t.Errorf("Limits %q: %d to %d, model %v", m[1], lo, hi, l)
		}
	}
}
