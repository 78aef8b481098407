package auth

import "context"

// TakeHashSlot holds one password-hashing slot until release is called, as
// a running hash would, so that tests can fill the slots deterministically.
func (s *Service) TakeHashSlot(ctx context.Context) (release func(), err error) {
	return s.hashing.acquire(ctx)
}

// HashWaiting is how many attempts wait for a hashing slot.
func (s *Service) HashWaiting() int64 { return s.hashing.waiting.Load() }
