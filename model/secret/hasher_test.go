package secret_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"sync"
	"testing"

	"github.com/einvoice-ng/einvoice/model/secret"
)

// TestHasherMatchesHMAC checks the pooled hasher against a fresh HMAC, also
// from concurrent goroutines.
func TestHasherMatchesHMAC(t *testing.T) {
	pepper := []byte("pepper-for-tests-only-0123456789")
	h := secret.NewHasher(pepper)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				s := fmt.Sprintf("cs_sandbox_%d_%d", g, i)
				m := hmac.New(sha256.New, pepper)
				m.Write([]byte(s))
				want := m.Sum(nil)
				if got := h.Hash(s); !hmac.Equal(got, want) {
					t.Errorf("Hash(%q) = %x, want %x", s, got, want)
					return
				}
				if !h.Equal(s, want) || h.Equal(s+"x", want) {
					t.Errorf("Equal(%q) disagrees", s)
					return
				}
			}
		}()
	}
	wg.Wait()
}
