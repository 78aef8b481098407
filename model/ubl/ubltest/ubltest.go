// Package ubltest checks UBL documents in tests with real validators: the
// OASIS UBL 2.1 schemas (xmllint, libxml2) and the Peppol BIS Billing 3.0
// Schematron rules (CEN EN 16931 and OpenPeppol's), compiled to XSLT 2.0 by
// testdata/ubl/schematron.xsl and run by Saxon HE (Debian's
// libsaxonhe-java). .ci/run installs both; elsewhere a test without them
// is skipped, in CI it fails.
package ubltest

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// Testdata is the repository's testdata/ubl directory.
func Testdata() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "ubl")
}

// SaxonJar is Debian's Saxon HE.
const SaxonJar = "/usr/share/java/Saxon-HE.jar"

// Need skips the test when a tool is missing, except in CI where it fails.
func Need(t testing.TB, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		var err error
		if tool == "saxon" {
			_, err = os.Stat(SaxonJar)
			if err == nil {
				_, err = exec.LookPath("java")
			}
		} else {
			_, err = exec.LookPath(tool)
		}
		if err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is required in CI (.ci/run installs it): %v", tool, err)
			}
			t.Skipf("%s is not installed: %v", tool, err)
		}
	}
}

// ValidateXSD validates a document against the UBL 2.1 Invoice or
// CreditNote schema (by its root) and returns xmllint's complaints, empty
// when it is valid.
func ValidateXSD(t testing.TB, doc []byte) string {
	t.Helper()
	Need(t, "xmllint")
	root := "Invoice"
	if bytes.Contains(doc[:min(len(doc), 400)], []byte("<CreditNote")) {
		root = "CreditNote"
	}
	xsd := filepath.Join(Testdata(), "xsd", "maindoc", "UBL-"+root+"-2.1.xsd")
	f := filepath.Join(t.TempDir(), "doc.xml")
	if err := os.WriteFile(f, doc, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("xmllint", "--noout", "--nonet", "--schema", xsd, f).CombinedOutput()
	if err != nil {
		return string(out)
	}
	return ""
}

// Finding is one failed Schematron assertion.
type Finding struct {
	ID       string `xml:"id,attr"`
	Flag     string `xml:"flag,attr"`
	Location string `xml:"location,attr"`
	Text     string `xml:",chardata"`
}

func (f Finding) String() string {
	return fmt.Sprintf("%s (%s) at %s: %s", f.ID, f.Flag, f.Location, strings.TrimSpace(f.Text))
}

var (
	compileOnce sync.Once
	compiled    []string
	compileErr  error
	compileDir  string
)

// Schemas are the Schematron files of Peppol BIS Billing 3.0, in the order
// they run.
var Schemas = []string{"CEN-EN16931-UBL", "PEPPOL-EN16931-UBL"}

// compile compiles the Schematron files once per test binary.
func compile() ([]string, error) {
	compileOnce.Do(func() {
		compileDir, compileErr = os.MkdirTemp("", "ubltest-sch-")
		if compileErr != nil {
			return
		}
		for _, s := range Schemas {
			out := filepath.Join(compileDir, s+".xsl")
			cmd := exec.Command("java", "-cp", SaxonJar, "net.sf.saxon.Transform",
				"-s:"+filepath.Join(Testdata(), "peppol", "sch", s+".sch"),
				"-xsl:"+filepath.Join(Testdata(), "schematron.xsl"), "-o:"+out)
			if b, err := cmd.CombinedOutput(); err != nil {
				compileErr = fmt.Errorf("compile %s: %v: %s", s, err, b)
				return
			}
			compiled = append(compiled, out)
		}
	})
	return compiled, compileErr
}

// Schematron runs the Peppol BIS Billing 3.0 rules over documents (by
// name) and returns each one's fatal findings (warnings left out), one
// Saxon run per rule set for all of them.
func Schematron(t testing.TB, docs map[string][]byte) map[string][]Finding {
	t.Helper()
	Need(t, "saxon")
	xsls, err := compile()
	if err != nil {
		t.Fatal(err)
	}
	in := t.TempDir()
	for name, doc := range docs {
		if err := os.WriteFile(filepath.Join(in, name+".xml"), doc, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	found := map[string][]Finding{}
	for _, xsl := range xsls {
		out := t.TempDir()
		cmd := exec.Command("java", "-cp", SaxonJar, "net.sf.saxon.Transform", "-s:"+in, "-xsl:"+xsl, "-o:"+out)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("schematron %s: %v: %s", filepath.Base(xsl), err, b)
		}
		for name := range docs {
			b, err := os.ReadFile(filepath.Join(out, name+".xml"))
			if err != nil {
				t.Fatalf("schematron %s wrote nothing for %s: %v", filepath.Base(xsl), name, err)
			}
			var r struct {
				XMLName xml.Name  `xml:"findings"`
				Failed  []Finding `xml:"failed-assert"`
			}
			if err := xml.Unmarshal(b, &r); err != nil {
				t.Fatalf("schematron output for %s: %v", name, err)
			}
			for _, f := range r.Failed {
				if f.Flag == "fatal" || f.Flag == "" {
					found[name] = append(found[name], f)
				}
			}
			if _, ok := found[name]; !ok {
				found[name] = nil
			}
		}
	}
	return found
}
