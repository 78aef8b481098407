package nrs

import (
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
)

// docTable returns the cells of the table between <!-- name --> and
// <!-- /name --> in docs/nrs-test-vectors.md, header rows skipped, code
// spans unwrapped.
func docTable(t *testing.T, name string) [][]string {
	t.Helper()
	doc := string(readFile(t, "../../docs/nrs-test-vectors.md"))
	start := strings.Index(doc, "<!-- "+name+" -->")
	end := strings.Index(doc, "<!-- /"+name+" -->")
	if start < 0 || end < start {
		t.Fatalf("table %s not found", name)
	}
	var rows [][]string
	for i, line := range strings.Split(doc[start:end], "\n") {
		if i < 3 || !strings.HasPrefix(line, "|") {
			continue // marker, header, separator
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for j, c := range cells {
			cells[j] = strings.Trim(strings.TrimSpace(c), "`")
		}
		rows = append(rows, cells)
	}
	if len(rows) == 0 {
		t.Fatalf("table %s is empty", name)
	}
	return rows
}

func TestPublishedIRNGeneration(t *testing.T) {
	a := newAuthority(t)
	for _, row := range docTable(t, "irn-generate") {
		ref, sid, date, result := row[0], row[1], row[2], row[3]
		t.Run(ref+"/"+sid+"/"+date, func(t *testing.T) {
			irn, err := a.GenerateIRN(ref, sid, date)
			typ, loc, isErr := strings.Cut(result, " at ")
			if !isErr {
				if err != nil || irn != result {
					t.Fatalf("GenerateIRN = %q, %v; published %q", irn, err, result)
				}
				return
			}
			problemAt(t, err, model.ProblemType(strings.Trim(typ, "` ")), strings.Trim(loc, "` "))
		})
	}
}

func TestPublishedIRNValidation(t *testing.T) {
	a := newAuthority(t)
	for _, row := range docTable(t, "irn-validate") {
		irn, ref, sid, valid, failed := row[0], row[1], row[2], row[3], row[4]
		t.Run(irn+"/"+ref+"/"+sid, func(t *testing.T) {
			v := a.ValidateIRN(irn, ref, sid)
			if got := map[bool]string{true: "true", false: "false"}[v.Valid]; got != valid {
				t.Fatalf("valid = %s, published %s", got, valid)
			}
			var got []string
			for _, c := range v.Checks {
				if !c.Passed {
					got = append(got, c.Name)
				}
			}
			if strings.Join(got, ", ") != failed {
				t.Fatalf("failed checks %v, published %q", got, failed)
			}
		})
	}
}
