package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model/store"
)

// chainReport is one chain's verification as `einvoice audit verify`
// prints it; the JSON form is also the export of heads that a later run
// compares with (--heads).
type chainReport struct {
	Chain    string `json:"chain"`
	Valid    bool   `json:"valid"`
	Entries  int64  `json:"entries"`
	HeadSeq  int64  `json:"head_seq"`
	HeadHash string `json:"head_hash"`
	Problem  string `json:"problem,omitempty"`
}

// runAudit verifies audit chains (verify) or re-chains entries written
// before the chain was keyed (rechain).
func runAudit(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 || (args[0] != "verify" && args[0] != "rechain") {
		return errors.New("usage: einvoice audit verify [--organization ID] [--heads FILE] [--json] | einvoice audit rechain")
	}
	fs := flag.NewFlagSet("audit "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	orgFlag := fs.String("organization", "", "verify this organization's chain only")
	headsFile := fs.String("heads", "", "a JSON export of an earlier run (--json): fail when a chain no longer reaches its head then")
	asJSON := fs.Bool("json", false, "print the reports as JSON (keep it: it is the export --heads compares with)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	dsn := getenv("EINVOICE_DATABASE_URL")
	if dsn == "" {
		return errors.New("missing required configuration: EINVOICE_DATABASE_URL")
	}
	enc, _ := decodeKey(getenv("EINVOICE_ENCRYPTION_KEY"))
	key, err := auditKeyFromEnv(getenv, enc)
	if err != nil {
		return err
	}
	if len(key) == 0 {
		return errors.New("missing required configuration: EINVOICE_AUDIT_KEY, or EINVOICE_ENCRYPTION_KEY it derives from (as the api has them)")
	}
	st, err := store.Open(ctx, dsn)
	if err != nil {
		return err
	}
	defer st.Close()

	if args[0] == "rechain" {
		n, err := st.Audit().Rechain(ctx, key)
		fmt.Fprintf(stdout, "re-chained %d audit entries under the audit key\n", n)
		return err
	}

	chains := []*uuid.UUID{}
	if *orgFlag != "" {
		id, err := uuid.Parse(*orgFlag)
		if err != nil {
			return fmt.Errorf("--organization: %w", err)
		}
		chains = append(chains, &id)
	} else if chains, err = st.Audit().Chains(ctx); err != nil {
		return err
	}
	var reports []chainReport
	failed := 0
	for _, org := range chains {
		chk, err := st.Audit().Verify(ctx, org, key)
		if err != nil {
			return err
		}
		r := chainReport{Chain: chk.Chain, Valid: chk.Valid(), Entries: chk.Entries, Problem: chk.Problem}
		if chk.Head != nil {
			r.HeadSeq, r.HeadHash = chk.Head.Seq, chk.Head.Hash
		}
		reports = append(reports, r)
	}
	if *headsFile != "" {
		if err := compareHeads(ctx, st, *headsFile, reports); err != nil {
			return err
		}
	}
	for _, r := range reports {
		if !r.Valid {
			failed++
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(reports); err != nil {
			return err
		}
	} else {
		for _, r := range reports {
			state := "ok"
			if !r.Valid {
				state = "BROKEN: " + r.Problem
			}
			fmt.Fprintf(stdout, "%-36s %6d entries  head %d %s  %s\n", r.Chain, r.Entries, r.HeadSeq, r.HeadHash, state)
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d audit chains do not verify", failed, len(reports))
	}
	return nil
}

// compareHeads marks a report broken when its chain no longer holds the
// head an earlier export recorded: fewer entries (truncated), or another
// entry at that place (rewritten). Only an export kept outside the
// database catches a truncation whose head record was rewound too.
func compareHeads(ctx context.Context, st *store.Store, path string, reports []chainReport) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("--heads: %w", err)
	}
	var old []chainReport
	if err := json.Unmarshal(b, &old); err != nil {
		return fmt.Errorf("--heads %s: not an export of einvoice audit verify --json: %w", path, err)
	}
	byChain := map[string]*chainReport{}
	for i := range reports {
		byChain[reports[i].Chain] = &reports[i]
	}
	for _, o := range old {
		if o.HeadSeq == 0 {
			continue
		}
		r := byChain[o.Chain]
		if r == nil {
			continue // not verified this time (--organization)
		}
		hash, err := st.Audit().EntryHash(ctx, o.Chain, o.HeadSeq)
		if err != nil {
			return err
		}
		switch {
		case hash == "":
			r.Valid, r.Problem = false, fmt.Sprintf("truncated since the export: entry %d, its head then, is gone", o.HeadSeq)
		case hash != o.HeadHash:
			r.Valid, r.Problem = false, fmt.Sprintf("rewritten since the export: entry %d is not the one exported", o.HeadSeq)
		}
	}
	return nil
}
