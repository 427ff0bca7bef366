package normalize_test

import (
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// checkQuick holds SuffixQuick's answer for host, when it gives one, to
// x/net's (ComputeSuffixLens), and the URL's domain parts, which take it,
// to x/net's (checkDomainParts); it reports whether SuffixQuick answered.
func checkQuick(t testing.TB, p *normalize.Parser, host string) bool {
	t.Helper()
	for _, raw := range []string{"http://" + host + "/", "http://" + host + "./"} {
		if u, err := p.ParseAuthority(raw); err == nil {
			checkDomainParts(t, raw, u)
		}
	}
	n, r := normalize.SuffixQuick(host)
	if r < 0 {
		return false
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return false // no domain: the URL parser makes none that is an address (TestDomainIsNoAddr)
	}
	want := normalize.ComputeSuffixLens(host)
	if n != want.All() || len(host)-r != want.Registrable() {
		t.Fatalf("%q: suffixQuick suffix %d, registrable %d bytes; x/net %+v", host, n, len(host)-r, want)
	}
	return true
}

// quickHosts are the hosts around every node of the list (nodeHosts) and
// a label of every length to 20 before each node, before each node's
// first label and before the top-level label of a node of two labels
// (the shortcut's words end at the host's end: every alignment of the
// dots), and the hand-picked suffixHosts.
func quickHosts() []string {
	hosts := append(nodeHosts(), suffixHosts()...)
	label := "abcdefghijklmnopqrst"
	for _, n := range normalize.SuffixNodes() {
		first, parent, _ := strings.Cut(n.Domain, ".")
		for i := 1; i <= len(label); i++ {
			hosts = append(hosts, label[:i]+"."+n.Domain, "w."+label[:i]+"."+n.Domain)
			if parent != "" && !strings.Contains(parent, ".") {
				hosts = append(hosts, label[:i]+first+"."+parent, first[:len(first)-1]+label[:i]+"."+parent)
			}
		}
	}
	return hosts
}

// TestSuffixQuickNodes: suffixQuick's answers around every node of the
// list are x/net's, and it answers for most of them (it is not simply
// off).
func TestSuffixQuickNodes(t *testing.T) {
	var p normalize.Parser
	hosts := quickHosts()
	answered := 0
	for _, h := range hosts {
		if checkQuick(t, &p, h) {
			answered++
		}
	}
	if answered < len(hosts)/4 {
		t.Fatalf("suffixQuick answered for %d of %d hosts", answered, len(hosts))
	}
	t.Logf("suffixQuick answered for %d of %d hosts", answered, len(hosts))
}

// TestSuffixQuickCorpus: the same for the host of every URL of the shared
// lists ($URLNORM_DATA) or of the shipped corpus; suffixQuick answers for
// most of them.
func TestSuffixQuickCorpus(t *testing.T) {
	lines := shippedCorpus(t, false)
	if dir := os.Getenv("URLNORM_DATA"); dir != "" {
		files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
		for _, f := range files {
			lines = append(lines, readLines(t, f)...)
		}
	}
	var p normalize.Parser
	hosts := map[string]bool{}
	for _, raw := range lines {
		if u, err := p.ParseAuthority(raw); err == nil && u.HostKind() == normalize.HostDomain {
			hosts[strings.TrimSuffix(u.Host(), ".")] = true
		}
	}
	answered := 0
	for h := range hosts {
		if checkQuick(t, &p, h) {
			answered++
		}
	}
	if answered < len(hosts)/2 {
		t.Fatalf("suffixQuick answered for %d of %d hosts", answered, len(hosts))
	}
	t.Logf("suffixQuick answered for %d of %d hosts of %d URLs", answered, len(hosts), len(lines))
}

// FuzzSuffixQuick: any string, alone and before a node, in place of a
// node's first label and before its parent, as FuzzSuffixLens builds
// them.
func FuzzSuffixQuick(f *testing.F) {
	for i, h := range suffixHosts() {
		f.Add(h, uint16(i))
	}
	nodes := normalize.SuffixNodes()
	var p normalize.Parser
	f.Fuzz(func(t *testing.T, s string, pick uint16) {
		n := nodes[int(pick)%len(nodes)].Domain
		_, parent, _ := strings.Cut(n, ".")
		for _, h := range []string{s, s + "." + n, s + n, s + "." + parent} {
			checkQuick(t, &p, h)
		}
	})
}
