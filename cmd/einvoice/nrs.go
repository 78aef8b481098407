package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/einvoice-ng/einvoice/model"
	application "github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/workflows"
)

// runNRS dispatches the NRS tools.
func runNRS(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "refresh-codes" {
		return errors.New("usage: einvoice nrs refresh-codes --project <project_id> [--dry-run]")
	}
	return runRefreshCodes(ctx, args[1:], getenv, stdout, stderr)
}

// runRefreshCodes fetches NRS's code lists with a project's API
// credentials from the official host of the project's environment and
// stores them for every process of that environment to validate with.
func runRefreshCodes(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("nrs refresh-codes", flag.ContinueOnError)
	fs.SetOutput(stderr)
	project := fs.String("project", "", "the project whose NRS API credentials fetch the lists; its environment (sandbox or production) says which lists are refreshed")
	dryRun := fs.Bool("dry-run", false, "fetch and check the lists without storing them")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("nrs refresh-codes: unexpected argument %q", fs.Arg(0))
	}
	projectID, err := model.ParseUUID(*project)
	if err != nil {
		return errors.New("nrs refresh-codes: --project must be a project id (a UUID)")
	}
	c, err := envConfig(getenv)
	if err != nil {
		return err
	}
	log := newLogger(stderr, c.LogLevel)
	st, err := openStore(ctx, c, log)
	if err != nil {
		return err
	}
	defer st.Close()
	cfg, err := appConfig(c, log)
	if err != nil {
		return err
	}
	w, err := application.NewWorker(st, cfg)
	if err != nil {
		return err
	}
	defer w.Close()

	creds, err := w.Authority.Credentials(ctx, projectID)
	if err != nil {
		return err
	}
	if err := creds.RequireAPI(); err != nil {
		return err
	}
	// Lists are shared by every project of the environment: they come from
	// its official host only, whatever base URL the project uses.
	creds.BaseURL = w.Authority.OfficialBaseURL(creds.Environment)
	if creds.BaseURL == "" {
		return fmt.Errorf("no official %s host: set EINVOICE_NRS_SANDBOX_URL", creds.Environment)
	}
	client, err := workflows.MBSClients(c.Egress)(creds)
	if err != nil {
		return err
	}
	res, err := w.CodeLists.Refresh(ctx, projectID, workflows.NewCodeListFetcher(client), !*dryRun)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s code lists from %s\n", res.Environment, creds.BaseURL)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LIST\tENTRIES\tSHA-256\tRESULT")
	fetched := 0
	for _, l := range res.Lists {
		switch {
		case l.Err != nil:
			fmt.Fprintf(tw, "%s\t-\t-\tnot served: %v\n", l.Name, l.Err)
		default:
			fetched++
			state := "unchanged"
			if l.Changed {
				state = "changed"
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", l.Name, l.Entries, l.SHA256[:12], state)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	switch {
	case fetched == 0:
		return errors.New("NRS served no code list; nothing was stored")
	case res.Stored:
		fmt.Fprintf(stdout, "%d lists stored: every process validates %s invoices with them after its next poll (30 s by default)\n", fetched, res.Environment)
	default:
		fmt.Fprintf(stdout, "%d lists fetched; nothing stored (--dry-run)\n", fetched)
	}
	return nil
}
