package main

import (
	"context"
	"errors"
	"fmt"
	"io"

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
		names, err := st.MigrateUp(ctx)
		if err != nil {
			return err
		}
		if len(names) == 0 {
			fmt.Fprintln(stdout, "database is up to date")
		}
		for _, n := range names {
			fmt.Fprintln(stdout, "applied", n)
		}
	case "down":
		names, err := st.MigrateDown(ctx)
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
		list, err := st.MigrateStatus(ctx)
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
