package sandboxdb

import (
	"context"
	"strings"
)

// Parties is the repository of the businesses' parties.
type Parties struct{ d *DB }

// Parties returns the repository of the businesses' parties, in d's
// connection or transaction.
func (d *DB) Parties() Parties { return Parties{d} }

// Insert adds a party.
func (rp Parties) Insert(ctx context.Context, p *Party) error {
	p.BusinessID = strings.ToLower(p.BusinessID)
	_, err := rp.d.idb.NewInsert().Model(p).Exec(ctx)
	return mapErr(err)
}

// Count returns how many parties a business created.
func (rp Parties) Count(ctx context.Context, businessID string) (int, error) {
	n, err := rp.d.idb.NewSelect().Model((*Party)(nil)).Where("business_id = ?", strings.ToLower(businessID)).Count(ctx)
	return n, mapErr(err)
}

// Get returns one of a business's parties.
func (rp Parties) Get(ctx context.Context, businessID, id string) (*Party, error) {
	p := new(Party)
	err := rp.d.idb.NewSelect().Model(p).Where("business_id = ?", strings.ToLower(businessID)).
		Where("id = ?", strings.ToLower(id)).Scan(ctx)
	if err != nil {
		return nil, mapErr(err)
	}
	return p, nil
}

// ByTIN returns the newest of a business's parties with a TIN.
func (rp Parties) ByTIN(ctx context.Context, businessID, tin string) (*Party, error) {
	p := new(Party)
	err := rp.d.idb.NewSelect().Model(p).Where("business_id = ?", strings.ToLower(businessID)).
		Where("tin = ?", tin).OrderExpr("created_at DESC, id DESC").Limit(1).Scan(ctx)
	if err != nil {
		return nil, mapErr(err)
	}
	return p, nil
}

var partySorts = map[string]string{"created_at": "created_at", "party_name": "party_name", "tin": "tin", "email": "email"}

// Search returns one page of a business's parties whose name
// contains name (any case; "" matches all) and how many match in all.
func (rp Parties) Search(ctx context.Context, businessID, name string, p Page) ([]Party, int, error) {
	var out []Party
	q := rp.d.idb.NewSelect().Model(&out).Where("business_id = ?", strings.ToLower(businessID))
	if name != "" {
		q = q.Where("lower(party_name) LIKE ? ESCAPE '\\'", "%"+likeEscape(strings.ToLower(name))+"%")
	}
	n, err := q.OrderExpr(p.order(partySorts, "created_at", "id")).Limit(p.Size).Offset(p.offset()).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, mapErr(err)
	}
	return out, n, nil
}

// likeEscape escapes LIKE's wildcards.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
