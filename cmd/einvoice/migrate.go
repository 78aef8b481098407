package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/einvoice-ng/einvoice/model/store"
)

// runMigrate manages the schema of EINVOICE_DATABASE_URL.
func runMigrate(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	if len(args) != 1 {
		return errors.New("usage: einvoice migrate up|down|status")
	}
	dsn := getenv("EINVOICE_DATABASE_URL")
	if dsn == "" {
		return errors.New("missing required configuration: EINVOICE_DATABASE_URL")
	}
	st, err := store.Open(ctx, dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	switch args[0] {
	case "up":
		// Keying the audit chain re-chains the entries written before under
		// the audit key, which must therefore be configured.
		pending, err := st.AuditRechainPending(ctx)
		if err != nil {
			return err
		}
		var key []byte
		if pending {
			enc, _ := decodeKey(getenv("EINVOICE_ENCRYPTION_KEY"))
			if key, err = auditKeyFromEnv(getenv, enc); err != nil {
				return err
			}
			if len(key) == 0 {
				return errors.New("this upgrade keys the audit chain and re-chains its entries: set EINVOICE_AUDIT_KEY, or EINVOICE_ENCRYPTION_KEY, as the api has it")
			}
		}
		names, err := st.Migrations().Up(ctx)
		if err != nil {
			return err
		}
		if len(names) == 0 {
			fmt.Fprintln(stdout, "database is up to date")
		}
		for _, n := range names {
			fmt.Fprintln(stdout, "applied", n)
		}
		if slices.Contains(names, store.AuditKeyingMigration) {
			n, err := st.Audit().Rechain(ctx, key)
			if err != nil {
				return fmt.Errorf("audit entries not re-chained (einvoice audit verify reports the chains): %w", err)
			}
			fmt.Fprintf(stdout, "re-chained %d audit entries under the audit key\n", n)
		}
	case "down":
		names, err := st.Migrations().Down(ctx)
		if err != nil {
			return err
		}
		if len(names) == 0 {
			fmt.Fprintln(stdout, "nothing to roll back")
		}
		for _, n := range names {
			fmt.Fprintln(stdout, "rolled back", n)
		}
	case "status":
		list, err := st.Migrations().Status(ctx)
		if err != nil {
			return err
		}
		for _, m := range list {
			state := "pending"
			if m.Applied {
				state = "applied"
			}
			fmt.Fprintf(stdout, "%-40s %s\n", m.Name, state)
		}
	default:
		return fmt.Errorf("unknown migrate command %q (want up, down or status)", args[0])
	}
	return nil
}
