package nrssandbox

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"strings"

	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb"
)

// sealedPrefix starts a private key sealed at rest; a value without it is
// a clear PEM kept before keys were sealed (New seals those).
const sealedPrefix = "sealed:"

// newSealBox is the box private keys are sealed with: under key, or a
// random key of this process when key is empty (keys registered then stay
// readable only while the process runs).
func newSealBox(key []byte) (*secret.Box, error) {
	if len(key) == 0 {
		key = make([]byte, secret.KeySize)
		if _, err := rand.Read(key); err != nil {
			return nil, err
		}
	}
	return secret.NewBox(key)
}

// privateKeyAD binds a sealed private key to its business.
func privateKeyAD(businessID string) string {
	return "nrs-sandbox:business:" + strings.ToLower(businessID) + ":private_key"
}

// sealPrivateKey seals a business's private key PEM for the database, as
// einvoice's own store seals secrets (AES-256-GCM, the business id as
// associated data). An empty key stays empty.
func (h *Handler) sealPrivateKey(businessID, pemKey string) (string, error) {
	if pemKey == "" {
		return "", nil
	}
	sealed, err := h.box.Seal([]byte(pemKey), privateKeyAD(businessID))
	if err != nil {
		return "", err
	}
	return sealedPrefix + base64.StdEncoding.EncodeToString(sealed), nil
}

// errPrivateKeyUnreadable says a private key was sealed under another key.
var errPrivateKeyUnreadable = errors.New("the business's private key cannot be opened with this stand-in's key: register it again")

// privateKey opens a business's private key PEM ("" when none).
func (h *Handler) privateKey(b *business) (string, error) {
	v := b.PrivateKey
	if !strings.HasPrefix(v, sealedPrefix) {
		return v, nil
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(v, sealedPrefix))
	if err != nil {
		return "", errPrivateKeyUnreadable
	}
	pemKey, err := h.box.Open(raw, privateKeyAD(b.BusinessID))
	if err != nil {
		return "", errPrivateKeyUnreadable
	}
	return string(pemKey), nil
}

// sealClearPrivateKeys seals the private keys kept in clear before keys
// were sealed.
func (h *Handler) sealClearPrivateKeys(ctx context.Context) error {
	defer h.keys.changed()
	rows, err := h.db.Businesses().WithClearPrivateKeys(ctx, sealedPrefix)
	if err != nil {
		return err
	}
	for i := range rows {
		sealed, err := h.sealPrivateKey(rows[i].BusinessID, rows[i].PrivateKey)
		if err != nil {
			return err
		}
		if err := h.db.Businesses().SetPrivateKey(ctx, rows[i].BusinessID, rows[i].PrivateKey, sealed); err != nil {
			return err
		}
	}
	return nil
}

// PrivateKeyOf is the private key PEM a business registered ("" when
// none), opened from its seal.
func (h *Handler) PrivateKeyOf(b *sandboxdb.Business) (string, error) { return h.privateKey(b) }
