package invoices

import (
	"encoding/binary"
	"hash/maphash"
	"sync"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// issuedIRNs remembers the IRNs this process has seen issued, so that
// generating the IRN of an invoice again (retries, re-sends) costs no
// query. An issued IRN is never changed nor deleted, in this process or
// another, so a remembered one is always right; a miss asks the database.
// The zero value is ready to use.
//
// The cache holds no pointers the garbage collector must follow: entries
// are written one after the other into large byte chunks, found through a
// map from the project and a hash of the reference to where the entry
// starts. A cache of ordinary strings and records would be marked whole on
// every collection cycle, which while new IRNs keep coming in costs more
// than the cache saves. A hit is checked against the stored reference, so
// two references of equal hash are a miss, never a wrong answer.
type issuedIRNs struct {
	mu     sync.RWMutex
	seed   maphash.Seed
	items  map[irnKey]irnSpot
	chunks [][]byte
}

// irnKey finds an entry: its project and its reference's hash under the
// cache's seed.
type irnKey struct {
	project uuid.UUID
	hash    uint64
}

// irnSpot is where an entry starts: chunks[chunk][off:].
type irnSpot struct{ chunk, off uint32 }

const (
	// maxIssuedIRNs bounds the entries the cache holds (about 80 bytes
	// each with NRS's references of up to 50 characters).
	maxIssuedIRNs = 100000
	// irnChunkSize is the size of the chunks entries are written into.
	irnChunkSize = 256 << 10
	// maxIRNEntry bounds one entry; a longer one is not remembered.
	maxIRNEntry = 1 << 10
)

// get returns the IRN issued to the project's reference (upper case) and
// its issue date, when remembered.
func (c *issuedIRNs) get(project uuid.UUID, reference string) (irn, issueDate string, ok bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.items == nil {
		return "", "", false
	}
	spot, ok := c.items[irnKey{project, maphash.String(c.seed, reference)}]
	if !ok {
		return "", "", false
	}
	// An entry: the lengths of the issue date, reference and IRN
	// (uvarints), then the three one after the other.
	b := c.chunks[spot.chunk][spot.off:]
	var n [3]int
	for i := range n {
		v, w := binary.Uvarint(b)
		n[i], b = int(v), b[w:]
	}
	if string(b[n[0]:n[0]+n[1]]) != reference {
		return "", "", false // another reference of the same hash
	}
	text := string(b[:n[0]+n[1]+n[2]]) // the caller's own copy
	return text[n[0]+n[1]:], text[:n[0]], true
}

// put remembers rec.
func (c *issuedIRNs) put(rec *model.IssuedIRN) {
	size := 3*binary.MaxVarintLen16 + len(rec.IssueDate) + len(rec.InvoiceReference) + len(rec.IRN)
	if size > maxIRNEntry {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.items == nil || len(c.items) >= maxIssuedIRNs {
		// Start over: the chunks are left to the garbage collector.
		c.seed = maphash.MakeSeed()
		c.items = make(map[irnKey]irnSpot)
		c.chunks = nil
	}
	last := len(c.chunks) - 1
	if last < 0 || cap(c.chunks[last])-len(c.chunks[last]) < size {
		c.chunks = append(c.chunks, make([]byte, 0, irnChunkSize))
		last++
	}
	chunk := c.chunks[last]
	spot := irnSpot{uint32(last), uint32(len(chunk))}
	for _, s := range [...]string{rec.IssueDate, rec.InvoiceReference, rec.IRN} {
		chunk = binary.AppendUvarint(chunk, uint64(len(s)))
	}
	chunk = append(chunk, rec.IssueDate...)
	chunk = append(chunk, rec.InvoiceReference...)
	chunk = append(chunk, rec.IRN...)
	c.chunks[last] = chunk
	c.items[irnKey{rec.ProjectID, maphash.String(c.seed, rec.InvoiceReference)}] = spot
}
