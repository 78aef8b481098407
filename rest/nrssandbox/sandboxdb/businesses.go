package sandboxdb

import (
	"context"
	"reflect"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model/store/dbopen"
)

// Businesses is the repository of the businesses the stand-in acts as NRS for.
type Businesses struct{ d *DB }

// Businesses returns the repository of the businesses the stand-in acts as
// NRS for, in d's connection or transaction.
func (d *DB) Businesses() Businesses { return Businesses{d} }

// ByAPIKey returns the business presenting an API key.
func (rp Businesses) ByAPIKey(ctx context.Context, key string) (*Business, error) {
	b := new(Business)
	if err := rp.d.stmts.businessByKey.ScanOne(ctx, rp.d.conn(), b, key); err != nil {
		return nil, mapErr(err)
	}
	return b, nil
}

// ByAPIKeyWithFaults returns the business of an API key and its faults in
// force at now (Faults.Active), with one statement: what every call of the
// stand-in reads first.
func (rp Businesses) ByAPIKeyWithFaults(ctx context.Context, key string, now time.Time) (*Business, []Fault, error) {
	return rp.ByAPIKeyWithFaultsDuring(ctx, key, now, now)
}

// ByAPIKeyWithFaultsDuring is ByAPIKeyWithFaults with the faults in force
// at some moment from from to until: starting by until, ending after from.
func (rp Businesses) ByAPIKeyWithFaultsDuring(ctx context.Context, key string, from, until time.Time) (*Business, []Fault, error) {
	var rows []businessFaultRow
	if err := rp.d.stmts.businessAndFaults.ScanAll(ctx, rp.d.conn(), &rows,
		dbopen.TimeArg(rp.d.dialect, until), dbopen.TimeArg(rp.d.dialect, from), key); err != nil {
		return nil, nil, mapErr(err)
	}
	if len(rows) == 0 {
		return nil, nil, ErrNotFound
	}
	b := rows[0].B
	var faults []Fault
	for _, r := range rows {
		if r.F.Kind != "" { // a business without faults joins one row of NULLs
			faults = append(faults, r.F)
		}
	}
	return &b, faults, nil
}

// businessFaultRow is one row of ByAPIKeyWithFaults: the business, and one
// of its faults in force (columns prefixed f_, NULL when none).
type businessFaultRow struct {
	B Business `bun:"embed:b_"`
	F Fault    `bun:"embed:f_"`
}

// buildBusinessAndFaults is ByAPIKeyWithFaults's statement: the business of
// an API key ($3) left-joined to its faults in force (starting by $1,
// ending after $2), by kind
// and endpoint as Faults.Active lists them. The arguments are numbered in
// the order they appear (SQLite's placeholders are positional).
func buildBusinessAndFaults(db *bun.DB, _ string, ph func(int) string) string {
	var cols []string
	for _, t := range []struct {
		alias string
		typ   reflect.Type
	}{{"b", reflect.TypeFor[Business]()}, {"f", reflect.TypeFor[Fault]()}} {
		for _, f := range db.Table(t.typ).Fields {
			cols = append(cols, t.alias+"."+f.Name+" AS "+t.alias+"_"+f.Name)
		}
	}
	return "SELECT " + strings.Join(cols, ", ") + " FROM nrs_sandbox_businesses AS b" +
		" LEFT JOIN nrs_sandbox_faults AS f ON f.business_id = b.business_id AND f.starts_at <= " + ph(1) + " AND f.ends_at > " + ph(2) +
		" WHERE b.api_key = " + ph(3) + " ORDER BY f.kind ASC, f.endpoint ASC"
}

// ByID returns a business by its business id.
func (rp Businesses) ByID(ctx context.Context, id string) (*Business, error) {
	return rp.d.businessWhere(ctx, "business_id = ?", strings.ToLower(id))
}

// ByEntityID returns the business of an entity (one per entity).
func (rp Businesses) ByEntityID(ctx context.Context, id string) (*Business, error) {
	return rp.d.businessWhere(ctx, "entity_id = ?", strings.ToLower(id))
}

// ByOwner returns the business an owner registered.
func (rp Businesses) ByOwner(ctx context.Context, owner string) (*Business, error) {
	return rp.d.businessWhere(ctx, "owner = ?", owner)
}

// ByTIN returns the business with a TIN.
func (rp Businesses) ByTIN(ctx context.Context, tin string) (*Business, error) {
	return rp.d.businessWhere(ctx, "tin = ?", tin)
}

// ByEmail returns the business whose taxpayer logs in with email.
func (rp Businesses) ByEmail(ctx context.Context, email string) (*Business, error) {
	return rp.d.businessWhere(ctx, "lower(email) = ?", strings.ToLower(email))
}

func (d *DB) businessWhere(ctx context.Context, where string, arg any) (*Business, error) {
	b := new(Business)
	err := d.idb.NewSelect().Model(b).Where(where, arg).Limit(1).Scan(ctx)
	if err != nil {
		return nil, mapErr(err)
	}
	return b, nil
}

// Count returns how many businesses are registered.
func (rp Businesses) Count(ctx context.Context) (int, error) {
	n, err := rp.d.idb.NewSelect().Model((*Business)(nil)).Count(ctx)
	return n, mapErr(err)
}

// List lists registered businesses by business id, after the given id
// ("" for the first page).
func (rp Businesses) List(ctx context.Context, after string, limit int) ([]Business, error) {
	var out []Business
	q := rp.d.idb.NewSelect().Model(&out).OrderExpr("business_id ASC").Limit(limit)
	if after != "" {
		q = q.Where("business_id > ?", strings.ToLower(after))
	}
	if err := q.Scan(ctx); err != nil {
		return nil, mapErr(err)
	}
	return out, nil
}

// Insert adds a business; a taken business id, owner, entity id,
// TIN or API key is ErrConflict.
func (rp Businesses) Insert(ctx context.Context, b *Business) error {
	_, err := rp.d.idb.NewInsert().Model(b).Exec(ctx)
	return mapErr(err)
}

// Update rewrites a business's registration (not its owner, entity
// or creation time).
func (rp Businesses) Update(ctx context.Context, b *Business) error {
	_, err := rp.d.idb.NewUpdate().Model(b).
		Column("service_id", "tin", "name", "email", "certificate", "public_key", "private_key", "qr_encryption",
			"api_key", "api_secret_hash", "password_hash", "updated_at").
		WherePK().Exec(ctx)
	return mapErr(err)
}

// WithClearPrivateKeys returns the businesses whose private key is set
// but does not start with sealedPrefix (kept in clear).
func (rp Businesses) WithClearPrivateKeys(ctx context.Context, sealedPrefix string) ([]Business, error) {
	var out []Business
	err := rp.d.idb.NewSelect().Model(&out).Where("private_key <> ''").Where("private_key NOT LIKE ?", sealedPrefix+"%").Scan(ctx)
	return out, mapErr(err)
}

// SetPrivateKey replaces a business's private key value old by v (no
// change when another writer changed it meanwhile).
func (rp Businesses) SetPrivateKey(ctx context.Context, id, old, v string) error {
	_, err := rp.d.idb.NewUpdate().Model((*Business)(nil)).Set("private_key = ?", v).
		Where("business_id = ?", strings.ToLower(id)).Where("private_key = ?", old).Exec(ctx)
	return mapErr(err)
}

// Delete forgets a business with its parties, invoices and
// counters.
func (rp Businesses) Delete(ctx context.Context, id string) error {
	id = strings.ToLower(id)
	return rp.d.RunInTx(ctx, func(ctx context.Context, tx *DB) error {
		// Children first: the cascade is declared too, but SQLite applies it
		// only with foreign keys on, which a shared file may not have.
		for _, m := range []any{(*attempt)(nil), (*Invoice)(nil), (*Party)(nil), (*Business)(nil)} {
			if _, err := tx.idb.NewDelete().Model(m).Where("business_id = ?", id).Exec(ctx); err != nil {
				return mapErr(err)
			}
		}
		return nil
	})
}
