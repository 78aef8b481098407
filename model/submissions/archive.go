package submissions

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/access"
	"github.com/einvoice-ng/einvoice/model/store"
)

// The archive: every confirmed invoice is appended to its project's hash
// chain in the transaction that confirms it. Its entry covers the payload
// as cleared (by its hash), the QR, and a digest of every exchange with
// NRS (the answers included); the entry's hash is HMAC-SHA-256 under the
// archive key of the previous entry's hash and the entry, so that no row
// can be changed, removed or reordered without Verify noticing.

// archiveEventsMax bounds the events an archive digest reads.
const archiveEventsMax = 10000

// archive appends inv, being confirmed inside tx, to its project's chain:
// the digest of its exchanges first, then, under the project's lock
// (held to the commit; the caller's last statement saves inv), the
// chain's last entry.
func (c *core) archive(ctx context.Context, tx *store.Store, inv *model.SubmittedInvoice) error {
	digest, err := exchangesDigest(ctx, tx, inv.ID)
	if err != nil {
		return err
	}
	if err := tx.Projects().Lock(ctx, inv.ProjectID); err != nil {
		return err
	}
	var seq int64 = 1
	prev := ""
	last, err := tx.Submissions().LastArchived(ctx, inv.ProjectID)
	switch {
	case err == nil:
		seq, prev = *last.ArchiveSeq+1, last.ArchiveHash
	case model.ErrorCodeOf(err) != model.CodeNotFound:
		return err
	}
	now := c.now()
	until := model.StoredTime(now.Add(c.cfg.Retention))
	inv.ArchiveSeq, inv.ArchivePrevHash, inv.ArchivedAt, inv.RetainUntil = &seq, prev, &now, &until
	inv.ArchiveHash = archiveHash(c.cfg.ArchiveKey, inv, digest)
	return nil
}

// archiveLater, in a transaction's context, collects the invoices it
// confirms instead of archiving and saving each at once: archiveAll then
// archives them together.
type archiveLater struct{ invs []*model.SubmittedInvoice }

type archiveLaterKey struct{}

// archiveAll appends invs, confirmed inside tx (archiveLater), to their
// projects' chains in that order and saves them: every digest first,
// then, per project, its lock and the chain's head once, and the
// entries one after the other; the lock is held from there to the
// commit, for the invoices' updates only.
func (c *core) archiveAll(ctx context.Context, tx *store.Store, invs []*model.SubmittedInvoice) error {
	digests := make([]string, len(invs))
	for i, inv := range invs {
		d, err := exchangesDigest(ctx, tx, inv.ID)
		if err != nil {
			return err
		}
		digests[i] = d
	}
	type head struct {
		seq  int64
		prev string
	}
	heads := map[uuid.UUID]*head{}
	now := c.now()
	until := model.StoredTime(now.Add(c.cfg.Retention))
	for i, inv := range invs {
		h := heads[inv.ProjectID]
		if h == nil {
			if err := tx.Projects().Lock(ctx, inv.ProjectID); err != nil {
				return err
			}
			h = &head{}
			last, err := tx.Submissions().LastArchived(ctx, inv.ProjectID)
			switch {
			case err == nil:
				h.seq, h.prev = *last.ArchiveSeq, last.ArchiveHash
			case model.ErrorCodeOf(err) != model.CodeNotFound:
				return err
			}
			heads[inv.ProjectID] = h
		}
		seq := h.seq + 1
		at, keep := now, until
		inv.ArchiveSeq, inv.ArchivePrevHash, inv.ArchivedAt, inv.RetainUntil = &seq, h.prev, &at, &keep
		inv.ArchiveHash = archiveHash(c.cfg.ArchiveKey, inv, digests[i])
		h.seq, h.prev = seq, inv.ArchiveHash
	}
	for _, inv := range invs {
		if err := tx.Submissions().Save(ctx, inv); err != nil {
			return err
		}
	}
	return nil
}

// exchangesDigest hashes an invoice's exchanges with NRS, in order, up to
// its confirmation (later exchanges, such as payment updates, are not part
// of the archived entry).
func exchangesDigest(ctx context.Context, tx *store.Store, invoiceID uuid.UUID) (string, error) {
	evs, _, err := tx.Submissions().Events(ctx, invoiceID, 0, archiveEventsMax)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, e := range evs {
		if e.Kind == model.EventState && e.ToStatus == model.InvoiceConfirmed {
			break
		}
		if e.Kind != model.EventExchange {
			continue
		}
		status := 0
		if e.HTTPStatus != nil {
			status = *e.HTTPStatus
		}
		fmt.Fprintf(h, "%d\x00%s\x00%d\x00%s\x00%s\x00", e.Seq, e.Operation, status, e.RequestBody, e.ResponseBody)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// archiveHash is the chain hash of an archived invoice.
func archiveHash(key []byte, inv *model.SubmittedInvoice, exchanges string) string {
	m := hmac.New(sha256.New, key)
	for _, f := range []string{
		inv.ArchivePrevHash, inv.ProjectID.String(), strconv.FormatInt(*inv.ArchiveSeq, 10), inv.ID.String(), inv.IRN,
		string(inv.InvoiceType), inv.PayloadHash, inv.QRCodeData, inv.ArchivedAt.UTC().Format(time.RFC3339Nano),
		inv.RetainUntil.UTC().Format(time.RFC3339Nano), exchanges,
	} {
		m.Write([]byte(f))
		m.Write([]byte{0})
	}
	return hex.EncodeToString(m.Sum(nil))
}

// ArchiveVerification is the outcome of checking a project's archive.
type ArchiveVerification struct {
	Valid   bool  `json:"valid"`
	Entries int64 `json:"entries"`
	// FirstInvalidSeq is the first entry that does not verify, when one
	// does not.
	FirstInvalidSeq *int64 `json:"first_invalid_seq"`
	Reason          string `json:"reason,omitempty"`
}

// archivePage is how many entries Verify and Export read at once.
const archivePage = 500

// VerifyArchive checks a project's whole archive chain: every entry's hash,
// the link to its predecessor, and that no sequence number is missing.
func (s *Service) VerifyArchive(ctx context.Context, who *model.Principal, projectID uuid.UUID) (*ArchiveVerification, error) {
	if err := requireRead(who); err != nil {
		return nil, err
	}
	if _, err := access.Project(ctx, s.st, who, projectID, access.Read); err != nil {
		return nil, err
	}
	out := &ArchiveVerification{Valid: true}
	var next int64 = 1
	prev := ""
	fail := func(seq int64, why string) (*ArchiveVerification, error) {
		out.Valid, out.FirstInvalidSeq, out.Reason = false, &seq, why
		return out, nil
	}
	for {
		rows, err := s.st.Submissions().Archived(ctx, projectID, next, nil, nil, archivePage)
		if err != nil {
			return nil, err
		}
		for i := range rows {
			inv := &rows[i]
			if *inv.ArchiveSeq != next {
				return fail(next, "entry missing")
			}
			if inv.ArchivePrevHash != prev {
				return fail(next, "entry does not follow its predecessor")
			}
			if sha(inv.Payload) != inv.PayloadHash {
				return fail(next, "payload changed")
			}
			digest, err := exchangesDigest(ctx, s.st, inv.ID)
			if err != nil {
				return nil, err
			}
			if !hmac.Equal([]byte(archiveHash(s.cfg.ArchiveKey, inv, digest)), []byte(inv.ArchiveHash)) {
				return fail(next, "entry hash does not verify")
			}
			prev, next = inv.ArchiveHash, next+1
			out.Entries++
		}
		if len(rows) < archivePage {
			return out, nil
		}
	}
}

// ArchiveEntry is one line of an archive export.
type ArchiveEntry struct {
	Seq         int64             `json:"seq"`
	InvoiceID   uuid.UUID         `json:"invoice_id"`
	IRN         string            `json:"irn"`
	InvoiceType model.InvoiceKind `json:"invoice_type"`
	Payload     json.RawMessage   `json:"payload"`
	PayloadHash string            `json:"payload_hash"`
	QRCodeData  string            `json:"qr_code_data"`
	Exchanges   []EventView       `json:"exchanges"`
	ArchivedAt  time.Time         `json:"archived_at"`
	RetainUntil time.Time         `json:"retain_until"`
	PrevHash    string            `json:"prev_hash"`
	Hash        string            `json:"hash"`
}

// ExportArchive writes a project's invoices archived in [from, to) as JSON
// Lines, one ArchiveEntry per line, in chain order.
func (s *Service) ExportArchive(ctx context.Context, who *model.Principal, projectID uuid.UUID, from, to time.Time, w io.Writer) error {
	if err := requireRead(who); err != nil {
		return err
	}
	if !to.After(from) {
		return model.Invalid(model.ProblemValueError, "to must be after from", "to")
	}
	if _, err := access.Project(ctx, s.st, who, projectID, access.Read); err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	var next int64 = 1
	for {
		rows, err := s.st.Submissions().Archived(ctx, projectID, next, &from, &to, archivePage)
		if err != nil {
			return err
		}
		for i := range rows {
			inv := &rows[i]
			evs, _, err := s.st.Submissions().Events(ctx, inv.ID, 0, archiveEventsMax)
			if err != nil {
				return err
			}
			e := ArchiveEntry{Seq: *inv.ArchiveSeq, InvoiceID: inv.ID, IRN: inv.IRN, InvoiceType: inv.InvoiceType,
				Payload: json.RawMessage(inv.Payload), PayloadHash: inv.PayloadHash, QRCodeData: inv.QRCodeData,
				Exchanges: []EventView{}, ArchivedAt: inv.ArchivedAt.UTC(), RetainUntil: inv.RetainUntil.UTC(),
				PrevHash: inv.ArchivePrevHash, Hash: inv.ArchiveHash}
			for j := range evs {
				if evs[j].Kind == model.EventExchange {
					e.Exchanges = append(e.Exchanges, eventView(&evs[j]))
				}
			}
			if err := enc.Encode(e); err != nil {
				return errors.Join(model.Errorf(model.CodeUnavailable, "export interrupted"), err)
			}
			next = *inv.ArchiveSeq + 1
		}
		if len(rows) < archivePage {
			return nil
		}
	}
}
