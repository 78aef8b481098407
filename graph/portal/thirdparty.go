package portal

import (
	"io/fs"
	"strings"
)

// ThirdParty is a bundle of published npm packages' browser builds that the
// binary serves beside the portal, as the portal's build copied them,
// unmodified, from the versions its package-lock.json pins (see
// third-party.ts): "swagger-ui" (swagger-ui-dist, behind /docs) and
// "graphiql" (graphiql, react and react-dom, behind /graphql).
// dist/third-party/manifest.json names each file's package, version, path
// in the package and SHA-256. It panics on a bundle the build did not
// make.
func ThirdParty(bundle string) fs.FS {
	if bundle == "" || strings.ContainsAny(bundle, "/.") {
		panic("portal: no third-party bundle " + bundle)
	}
	sub, err := fs.Sub(dist, "dist/third-party/"+bundle)
	if err == nil {
		_, err = fs.ReadDir(sub, ".")
	}
	if err != nil {
		panic("portal: the build has no third-party bundle " + bundle + "; run make portal")
	}
	return sub
}

// thirdPartyDir is where the build puts the bundles; the portal itself
// does not serve them.
const thirdPartyDir = "third-party/"
