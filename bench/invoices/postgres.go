package main

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strings"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// pgBackends reads the CPU of the PostgreSQL backends serving some
// databases: their process ids from pg_stat_activity, their CPU from /proc.
type pgBackends struct {
	db  *sql.DB
	dbs []string
}

func openPGBackends(dsn, dbs string) (*pgBackends, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return nil, fmt.Errorf("-postgres: %w", err)
	}
	var names []string
	for _, n := range strings.Split(dbs, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		names = []string{strings.TrimPrefix(u.Path, "/")}
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("-postgres: %w", err)
	}
	db.SetMaxOpenConns(1)
	return &pgBackends{db: db, dbs: names}, nil
}

func (p *pgBackends) close() { _ = p.db.Close() }

// cpu is the CPU seconds of each backend serving the databases, by pid;
// this reader's own backend is left out.
func (p *pgBackends) cpu(ctx context.Context) (map[int]float64, error) {
	rows, err := p.db.QueryContext(ctx, `SELECT pid FROM pg_stat_activity WHERE datname = ANY($1) AND pid <> pg_backend_pid()`, p.dbs)
	if err != nil {
		return nil, fmt.Errorf("-postgres: %w", err)
	}
	defer rows.Close()
	out := map[int]float64{}
	for rows.Next() {
		var pid int
		if err := rows.Scan(&pid); err != nil {
			return nil, err
		}
		out[pid] = cpuSeconds(pid)
	}
	return out, rows.Err()
}

// pgUsed is the CPU the backends spent between two readings: a backend
// present in both counts its difference, one that started meanwhile all
// of its CPU. n is the number of backends at the end.
func pgUsed(before, after map[int]float64) (used float64, n int) {
	for pid, t := range after {
		used += t - before[pid]
	}
	return used, len(after)
}
