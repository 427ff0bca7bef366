package resolve

import (
	"context"
	"sync"
	"time"
)

// limiter spaces requests to the same host at least gap apart. Callers
// reserve a slot under the lock and sleep outside it, so concurrent
// Resolves to one host queue up in order while other hosts go ahead.
type limiter struct {
	mu   sync.Mutex
	gap  time.Duration
	next map[string]time.Time // host → earliest start of its next request
}

// limiterPrune bounds the map: past this size, hosts whose slot is in the
// past (they would not wait anyway) are forgotten.
const limiterPrune = 4096

func newLimiter(gap time.Duration) *limiter {
	if gap <= 0 {
		return nil
	}
	return &limiter{gap: gap, next: map[string]time.Time{}}
}

// wait blocks until host may be requested, or ctx ends.
func (l *limiter) wait(ctx context.Context, host string) error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	now := time.Now()
	if len(l.next) >= limiterPrune {
		for h, t := range l.next {
			if t.Before(now) {
				delete(l.next, h)
			}
		}
	}
	at := l.next[host]
	if at.Before(now) {
		at = now
	}
	l.next[host] = at.Add(l.gap)
	l.mu.Unlock()
	d := at.Sub(now)
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// hostCache remembers DiscoverHost answers per domain for ttl and makes
// concurrent lookups of one domain share a single request.
type hostCache struct {
	mu       sync.Mutex
	ttl      time.Duration
	max      int
	now      func() time.Time
	entries  map[string]cacheEntry
	inflight map[string]*flight
}

type cacheEntry struct {
	host    string
	expires time.Time
}

type flight struct {
	done chan struct{}
	host string
	err  error
}

func newHostCache(ttl time.Duration, max int, now func() time.Time) *hostCache {
	return &hostCache{ttl: ttl, max: max, now: now,
		entries: map[string]cacheEntry{}, inflight: map[string]*flight{}}
}

// get returns the cached host of domain, or runs fetch once for all
// concurrent callers and caches a successful answer. A caller whose ctx
// ends stops waiting; the shared fetch goes on for the others.
func (c *hostCache) get(ctx context.Context, domain string, fetch func() (string, error)) (string, error) {
	c.mu.Lock()
	if e, ok := c.entries[domain]; ok && c.ttl > 0 && c.now().Before(e.expires) {
		c.mu.Unlock()
		return e.host, nil
	}
	f, ok := c.inflight[domain]
	if !ok {
		f = &flight{done: make(chan struct{})}
		c.inflight[domain] = f
		go c.run(domain, f, fetch)
	}
	c.mu.Unlock()
	select {
	case <-f.done:
		return f.host, f.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (c *hostCache) run(domain string, f *flight, fetch func() (string, error)) {
	f.host, f.err = fetch()
	c.mu.Lock()
	delete(c.inflight, domain)
	if f.err == nil && c.ttl > 0 {
		c.evict()
		c.entries[domain] = cacheEntry{f.host, c.now().Add(c.ttl)}
	}
	c.mu.Unlock()
	close(f.done)
}

// evict makes room for one entry: expired entries go first, then
// arbitrary ones (map order) until the cache is below its bound.
func (c *hostCache) evict() {
	if len(c.entries) < c.max {
		return
	}
	now := c.now()
	for d, e := range c.entries {
		if !now.Before(e.expires) {
			delete(c.entries, d)
		}
	}
	for d := range c.entries {
		if len(c.entries) < c.max {
			break
		}
		delete(c.entries, d)
	}
}
