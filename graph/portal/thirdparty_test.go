package portal_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/graph/portal"
)

type manifestEntry struct {
	Package string `json:"package"`
	Version string `json:"version"`
	Path    string `json:"path"`
	SHA256  string `json:"sha256"`
}

func readJSON(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// TestThirdPartyFromPublishedPackages checks that the third-party files the
// binary serves are the ones the build copied from the npm packages at the
// versions package.json and package-lock.json pin: every embedded file is
// in the build's manifest with its SHA-256, every manifest entry names a
// package pinned exactly in package.json and locked at that version, and the
// portal itself does not serve the bundles.
func TestThirdPartyFromPublishedPackages(t *testing.T) {
	var manifest map[string]manifestEntry
	readJSON(t, "dist/third-party/manifest.json", &manifest)
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	readJSON(t, "package.json", &pkg)
	var lock struct {
		Packages map[string]struct {
			Version   string `json:"version"`
			Integrity string `json:"integrity"`
		} `json:"packages"`
	}
	readJSON(t, "package-lock.json", &lock)

	packages := map[string]bool{}
	for name, e := range manifest {
		packages[e.Package] = true
		if pin := pkg.Dependencies[e.Package]; pin != e.Version {
			t.Errorf("%s: from %s %s, but package.json pins %q", name, e.Package, e.Version, pin)
		}
		l := lock.Packages["node_modules/"+e.Package]
		if l.Version != e.Version || !strings.HasPrefix(l.Integrity, "sha512-") {
			t.Errorf("%s: from %s %s, but package-lock.json has %+v", name, e.Package, e.Version, l)
		}
	}
	for _, p := range []string{"swagger-ui-dist", "graphiql", "react", "react-dom"} {
		if !packages[p] {
			t.Errorf("the manifest has no file of %s", p)
		}
	}

	seen := 0
	for _, bundle := range []string{"swagger-ui", "graphiql"} {
		files := portal.ThirdParty(bundle)
		err := fs.WalkDir(files, ".", func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := fs.ReadFile(files, name)
			if err != nil {
				return err
			}
			key := "third-party/" + bundle + "/" + name
			sum := sha256.Sum256(b)
			if e, ok := manifest[key]; !ok || e.SHA256 != hex.EncodeToString(sum[:]) {
				t.Errorf("%s: embedded, but not the build's copy (manifest: %+v)", key, e)
			}
			seen++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if seen != len(manifest) {
		t.Errorf("%d files embedded, %d in the manifest", seen, len(manifest))
	}

	h := portal.Handler()
	for _, p := range []string{"/third-party/swagger-ui/swagger-ui-bundle.js", "/third-party/manifest.json", "/third-party/graphiql/graphiql.min.js"} {
		if w := get(h, http.MethodGet, p); w.Code != http.StatusNotFound {
			t.Errorf("the portal serves %s: %d", p, w.Code)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("ThirdParty of an unknown bundle did not panic")
		}
	}()
	portal.ThirdParty("nope")
}

// TestNoCopiesOfThirdPartyFiles fails when a file of the third-party
// bundles is committed anywhere else in the repository: they come from
// the build only.
func TestNoCopiesOfThirdPartyFiles(t *testing.T) {
	var manifest map[string]manifestEntry
	readJSON(t, "dist/third-party/manifest.json", &manifest)
	bySize := map[int64]bool{}
	sums := map[string]string{}
	for name, e := range manifest {
		b, err := os.ReadFile(filepath.Join("dist", name))
		if err != nil {
			t.Fatal(err)
		}
		if len(b) < 1024 { // licence texts may well repeat
			continue
		}
		bySize[int64(len(b))] = true
		sums[e.SHA256] = name
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dist, _ := filepath.Abs("dist")
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules":
				return filepath.SkipDir
			}
			if p == dist {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil || !bySize[info.Size()] {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		if name, ok := sums[hex.EncodeToString(sum[:])]; ok {
			t.Errorf("%s is a copy of the build's %s: delete it", p, name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
