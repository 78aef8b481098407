package invoices

import (
	"sync"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// issuedIRNs remembers the IRNs this process has seen issued, so that
// generating the IRN of an invoice again (retries, re-sends) costs no
// query. An issued IRN is never changed nor deleted, in this process or
// another, so a remembered one is always right; a miss asks the database.
// The zero value is ready to use.
type issuedIRNs struct {
	mu    sync.RWMutex
	items map[irnKey]model.IssuedIRN
}

type irnKey struct {
	project   uuid.UUID
	reference string // upper case
}

// maxIssuedIRNs bounds the memory the cache takes (about 100 bytes each).
const maxIssuedIRNs = 100000

func (c *issuedIRNs) get(project uuid.UUID, reference string) (model.IssuedIRN, bool) {
	c.mu.RLock()
	rec, ok := c.items[irnKey{project, reference}]
	c.mu.RUnlock()
	return rec, ok
}

func (c *issuedIRNs) put(rec *model.IssuedIRN) {
	c.mu.Lock()
	if c.items == nil || len(c.items) >= maxIssuedIRNs {
		c.items = make(map[irnKey]model.IssuedIRN)
	}
	c.items[irnKey{rec.ProjectID, rec.InvoiceReference}] = *rec
	c.mu.Unlock()
}
