package submissions

import (
	"context"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

// OnGroupCommit sets the function told the size of every shared
// transaction of a Group that committed (nil: none).
func OnGroupCommit(f func(n int)) { groupCommitted = f }

// ArchiveHashOf recomputes an archived invoice's chain hash from the
// database, as VerifyArchive does.
func ArchiveHashOf(ctx context.Context, st *store.Store, key []byte, inv *model.SubmittedInvoice) (string, error) {
	d, err := exchangesDigest(ctx, st, inv.ID)
	return archiveHash(key, inv, d), err
}
