//go:build prod

package main

import (
	"context"
	"errors"
	"io"
)

// errDevNotBuilt is what `einvoice dev` answers in a production build.
var errDevNotBuilt = errors.New("the dev subcommand is not in this build: production builds (make build, the Dockerfile: -tags prod) leave out the embedded Temporal server and its Web UI; run `go run ./cmd/einvoice dev` from a checkout, or `einvoice api` and `einvoice worker` against a Temporal cluster")

// runDev in a production build: the embedded Temporal server and its Web UI,
// which only development uses, are not compiled in (see dev.go).
func runDev(context.Context, []string, func(string) string, io.Writer, io.Writer) error {
	return errDevNotBuilt
}
