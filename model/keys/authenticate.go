package keys

import (
	"context"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

// keyCache keeps recently read keys by client id so that authentication
// costs one keyed hash, not a query. Entries expire after ttl, which bounds
// how late another process's revocation is seen; this process forgets a key
// at once when it rotates or revokes it.
type keyCache struct {
	ttl   time.Duration
	mu    sync.RWMutex
	items map[string]cachedKey
	group singleflight.Group
}

type cachedKey struct {
	auth    *store.KeyAuth // nil: no such client id
	scopes  model.Scopes   // parsed once; shared read-only by principals
	fetched time.Time
}

// maxCachedKeys bounds memory under a flood of made-up client ids.
const maxCachedKeys = 50000

func newKeyCache(ttl time.Duration) *keyCache {
	return &keyCache{ttl: ttl, items: make(map[string]cachedKey)}
}

func (c *keyCache) get(clientID string, now time.Time) (cachedKey, bool) {
	c.mu.RLock()
	e, ok := c.items[clientID]
	c.mu.RUnlock()
	if !ok || now.Sub(e.fetched) >= c.ttl {
		return cachedKey{}, false
	}
	return e, true
}

func (c *keyCache) put(clientID string, e cachedKey) {
	c.mu.Lock()
	if len(c.items) >= maxCachedKeys {
		for k := range c.items { // drop an arbitrary entry
			delete(c.items, k)
			break
		}
	}
	c.items[clientID] = e
	c.mu.Unlock()
}

func (c *keyCache) forget(clientID string) {
	c.mu.Lock()
	delete(c.items, clientID)
	c.mu.Unlock()
}

const badKey = "invalid client id or secret"

// Authenticate checks a client id and secret and returns the key's
// principal. Unknown ids, wrong or rotated-out secrets and revoked keys all
// get the same unauthenticated error.
func (s *Service) Authenticate(ctx context.Context, clientID, clientSecret string) (*model.Principal, error) {
	if !strings.HasPrefix(clientID, "ck_") || !strings.HasPrefix(clientSecret, "cs_") || len(clientID) > 100 || len(clientSecret) > 200 {
		return nil, model.Errorf(model.CodeUnauthenticated, badKey)
	}
	now := s.cfg.Now()
	e, ok := s.cache.get(clientID, now)
	if !ok {
		v, err, _ := s.cache.group.Do(clientID, func() (any, error) {
			a, err := s.st.Keys().ByClientID(context.WithoutCancel(ctx), clientID)
			if err != nil && model.ErrorCodeOf(err) != model.CodeNotFound {
				return nil, err
			}
			if err != nil {
				a = nil
			}
			e := cachedKey{auth: a, fetched: s.cfg.Now()}
			if a != nil {
				e.scopes = model.ParseScopes(a.Key.Scopes)
			}
			s.cache.put(clientID, e)
			return e, nil
		})
		if err != nil {
			return nil, err
		}
		e = v.(cachedKey)
	}
	a := e.auth
	if a == nil || a.Key.Status != model.KeyActive {
		return nil, model.Errorf(model.CodeUnauthenticated, badKey)
	}
	ok = s.cfg.Hasher.Equal(clientSecret, a.Key.SecretHash)
	if !ok && a.Key.PrevSecretExpiresAt != nil && now.Before(*a.Key.PrevSecretExpiresAt) {
		ok = s.cfg.Hasher.Equal(clientSecret, a.Key.PrevSecretHash)
	}
	if !ok {
		return nil, model.Errorf(model.CodeUnauthenticated, badKey)
	}
	return &model.Principal{
		KeyID: a.Key.ID, ProjectID: a.Key.ProjectID, OrganizationID: a.OrganizationID,
		Environment: a.Environment, Scopes: e.scopes,
	}, nil
}
