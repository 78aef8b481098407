// Package secret seals secrets at rest (AES-256-GCM), hashes high-entropy
// API secrets with a keyed hash (HMAC-SHA-256 with a server pepper) and makes
// random tokens. It is pure and has no state beyond its keys.
package secret

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"hash"
	"io"
	"math/big"
	"sync"

	"golang.org/x/crypto/hkdf"
)

// KeySize is the size of an AES-256 key and of derived keys.
const KeySize = 32

// Box seals and opens small secrets with AES-256-GCM. The nonce is random and
// prefixed to the ciphertext; additional data binds a sealed value to where
// it is stored, so it cannot be moved to another row or column.
type Box struct {
	aead cipher.AEAD
}

// NewBox builds a Box from a 32-byte key.
func NewBox(key []byte) (*Box, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("secret: encryption key must be %d bytes, got %d", KeySize, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Box{aead: aead}, nil
}

// Seal encrypts plaintext bound to ad (for example "project:<id>:api_secret").
// An empty plaintext seals to nil.
func (b *Box) Seal(plaintext []byte, ad string) ([]byte, error) {
	if len(plaintext) == 0 {
		return nil, nil
	}
	nonce := make([]byte, b.aead.NonceSize(), b.aead.NonceSize()+len(plaintext)+b.aead.Overhead())
	if _, err := io.ReadFull(rand.Reader, nonce); err != nil {
		return nil, err
	}
	return b.aead.Seal(nonce, nonce, plaintext, []byte(ad)), nil
}

// Open decrypts what Seal produced with the same ad. nil opens to nil.
func (b *Box) Open(sealed []byte, ad string) ([]byte, error) {
	if len(sealed) == 0 {
		return nil, nil
	}
	n := b.aead.NonceSize()
	if len(sealed) < n+b.aead.Overhead() {
		return nil, errors.New("secret: sealed value too short")
	}
	out, err := b.aead.Open(nil, sealed[:n], sealed[n:], []byte(ad))
	if err != nil {
		return nil, errors.New("secret: cannot open sealed value (wrong key or tampered)")
	}
	return out, nil
}

// Derive derives an independent key for purpose from a master key (HKDF-SHA-256).
func Derive(master []byte, purpose string) []byte {
	out := make([]byte, KeySize)
	r := hkdf.New(sha256.New, master, nil, []byte("einvoice:"+purpose))
	if _, err := io.ReadFull(r, out); err != nil {
		panic(err) // HKDF cannot fail for 32 bytes
	}
	return out
}

// Hasher computes keyed hashes of high-entropy secrets. A fast keyed hash is
// right here: API secrets are random, so there is nothing to brute-force, and
// authentication sits on every request's path.
type Hasher struct {
	pepper []byte
	// macs holds keyed HMACs for reuse: Reset restores the keyed state
	// without hashing the pepper again or allocating.
	macs sync.Pool
}

// NewHasher builds a Hasher with a server-side pepper.
func NewHasher(pepper []byte) *Hasher {
	h := &Hasher{pepper: append([]byte(nil), pepper...)}
	h.macs.New = func() any { return hmac.New(sha256.New, h.pepper) }
	return h
}

// Hash returns HMAC-SHA-256(pepper, secret).
func (h *Hasher) Hash(secret string) []byte {
	m := h.macs.Get().(hash.Hash)
	m.Reset()
	_, _ = io.WriteString(m, secret)
	out := m.Sum(make([]byte, 0, sha256.Size))
	h.macs.Put(m)
	return out
}

// Equal compares a secret with a stored hash in constant time.
func (h *Hasher) Equal(secret string, stored []byte) bool {
	if len(stored) == 0 {
		return false
	}
	return subtle.ConstantTimeCompare(h.Hash(secret), stored) == 1
}

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// Base62 returns n random base62 characters from crypto/rand.
func Base62(n int) (string, error) {
	out := make([]byte, n)
	max := big.NewInt(int64(len(base62)))
	for i := range out {
		v, err := rand.Int(rand.Reader, max)
		if err != nil {
			return "", err
		}
		out[i] = base62[v.Int64()]
	}
	return string(out), nil
}

// RandomKey returns KeySize random bytes.
func RandomKey() ([]byte, error) {
	k := make([]byte, KeySize)
	_, err := io.ReadFull(rand.Reader, k)
	return k, err
}
