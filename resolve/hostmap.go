package resolve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/normalize/sourceconfig"
)

// HostMap is the host-map file that "urlnorm learn-hosts" writes and the
// clara profile's configuration loader reads (clara-policy Rule 5):
//
//	{"hosts": {"boe.es": "www.boe.es", "www.boe.es": "www.boe.es"}}
//
// Keys and values are canonical hosts (CanonicalHost). A domain mapped to
// itself was found to be its own canonical host: loaded over the clara
// profile, it overrides any mapping the built-in table has for it. Chains
// are already collapsed (no value maps further), and there are no cycles.
type HostMap struct {
	Hosts map[string]string `json:"hosts"`
}

// JSON returns the map as indented JSON with sorted keys.
func (m HostMap) JSON() []byte {
	if m.Hosts == nil {
		m.Hosts = map[string]string{}
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic(err) // a map of strings always marshals
	}
	return append(b, '\n')
}

// Learned is the outcome of DiscoverHost for one domain.
type Learned struct {
	Domain string // as given
	Key    string // canonical form of Domain ("" when it is not a host)
	Host   string // the discovered host
	Err    error
}

// LearnHosts runs DiscoverHost on each domain, workers at a time (at least
// one), and returns the outcomes in input order. Duplicate domains are
// looked up once (the cache and the shared lookup see to it).
func (r *Resolver) LearnHosts(ctx context.Context, domains []string, workers int) []Learned {
	out := make([]Learned, len(domains))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				d := domains[i]
				key, _ := canonicalHost(d)
				host, err := r.DiscoverHost(ctx, d)
				out[i] = Learned{Domain: d, Key: key, Host: host, Err: err}
			}
		}()
	}
	for i := range domains {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return out
}

// BuildHostMap turns learned hosts into a HostMap. Failed lookups are left
// out; a domain that is its own canonical host maps to itself. Chains are
// collapsed (a → b and b → c give a → c and b → c). Domains on a cycle
// (a → b, b → a: the sites disagree) and domains learned twice with
// different answers are left out and returned with an error.
func BuildHostMap(learned []Learned) (HostMap, []Learned) {
	edges := map[string]string{}
	var dropped []Learned
	for _, l := range learned {
		if l.Err != nil || l.Key == "" || l.Host == "" {
			continue
		}
		if prev, ok := edges[l.Key]; ok && prev != l.Host {
			l.Err = fmt.Errorf("learned twice with different hosts: %s and %s", prev, l.Host)
			dropped = append(dropped, l)
			continue
		}
		edges[l.Key] = l.Host
	}
	m := HostMap{Hosts: map[string]string{}}
	keys := make([]string, 0, len(edges))
	for k := range edges {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		h, ok := chainEnd(edges, k)
		if !ok {
			dropped = append(dropped, Learned{Domain: k, Key: k, Host: edges[k],
				Err: fmt.Errorf("%s is on a cycle of canonical hosts", k)})
			continue
		}
		m.Hosts[k] = h
	}
	return m, dropped
}

// ApplyHostMap returns p with m merged over its host map (Host.Map): m's
// entries replace p's, a host m maps to itself loses any mapping, and
// chains through both maps are followed to their end (built-in a → b plus
// learned b → c give a → c). A cycle is an error. It is the clara
// configuration loader (sourceconfig.LoadClaraConfig) fed with m as a file:
// the profile keeps its name and its version gets the map's fingerprint
// ("1.0.0+config.1a2b3c4d"), so outputs made with a learned map never claim
// the built-in's version.
func ApplyHostMap(p normalize.Profile, m HostMap) (normalize.Profile, error) {
	return sourceconfig.LoadClaraConfig(p, sourceconfig.ConfigFile{Name: "host map", Data: m.JSON()})
}

// ReadHostMap decodes a host-map file. Unknown fields are an error.
func ReadHostMap(name string, data []byte) (HostMap, error) {
	var m HostMap
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(&m)
	if err == nil {
		for k, v := range m.Hosts {
			ck, r1 := canonicalHost(k)
			cv, r2 := canonicalHost(v)
			if r1 != "" || r2 != "" || ck != k || cv != v {
				err = fmt.Errorf("%q → %q: hosts must be canonical (lowercase, punycode, no trailing dot)", k, v)
				break
			}
		}
	}
	if err != nil {
		return HostMap{}, &normalize.Error{Op: "load host map", Input: name, Kind: normalize.KindConfig, Err: err}
	}
	return m, nil
}

// chainEnd follows m from host to a host that maps nowhere else (or to
// itself); ok is false when the walk comes back to a host it has seen.
func chainEnd(m map[string]string, host string) (string, bool) {
	seen := map[string]bool{host: true}
	for {
		next, ok := m[host]
		if !ok || next == host {
			return host, true
		}
		if seen[next] {
			return "", false
		}
		seen[next] = true
		host = next
	}
}
