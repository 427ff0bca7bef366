package normalize_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

var updateCanary = flag.Bool("update-canary", false, "rewrite testdata/canary.tsv with the current outputs")

const canaryFile = "../testdata/canary.tsv"

// canaryInputs is a fixed input set: the shipped corpus, its dirty
// variants and the (unmodified) WPT inputs. Golden rows are checked one by
// one in TestGolden; they are not part of the digest so that adding a row
// does not look like an output change.
func canaryInputs(t testing.TB) []string {
	in := withVariants(shippedCorpus(t, false))
	for _, c := range loadWPT(t, wptFile) {
		in = append(in, c.Input)
	}
	return in
}

type canaryPin struct {
	version string
	inputs  int
	digest  string
}

// canaryDigest hashes every input's output (or error kind) and canonical
// hash, so any change of a profile's outputs or hash function shows.
func canaryDigest(n *normalize.Normalizer, inputs []string) string {
	h := sha256.New()
	for _, x := range inputs {
		out, err := n.Normalize(x)
		if err != nil {
			fmt.Fprintf(h, "%q\t!%s\n", x, normalize.KindOf(err))
			continue
		}
		fmt.Fprintf(h, "%q\t%q\t%s\n", x, out, n.HashCanonical(out))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestCanary pins a digest of every built-in profile's outputs per profile
// version: an output change without a version bump fails (issue 2 "Must
// show" 5). After a deliberate change: bump the profile's version, review
// the golden diff, then run
//
//	go test ./normalize -run TestCanary -update-canary
func TestCanary(t *testing.T) {
	inputs := canaryInputs(t)
	pins := readCanary(t)
	current := map[string]canaryPin{}
	for _, name := range normalize.Names() {
		if !normalize.Builtin(name) {
			continue
		}
		n := normalize.MustLookup(name)
		cur := canaryPin{n.Version(), len(inputs), canaryDigest(n, inputs)}
		current[name] = cur
		pin, ok := pins[name]
		switch {
		case *updateCanary:
		case !ok:
			t.Errorf("profile %s has no canary pin; run: go test ./normalize -run TestCanary -update-canary", name)
		case pin.inputs != cur.inputs:
			t.Errorf("canary input set changed (%d inputs pinned, %d now): testdata/urls or WPT data changed; re-pin with -update-canary", pin.inputs, cur.inputs)
		case pin.version == cur.version && pin.digest != cur.digest:
			t.Errorf("profile %s changed its outputs without a version bump (still %s): bump \"version\" in normalize/profiles/%s.json, review the golden diff, re-pin with -update-canary", name, cur.version, name)
		case pin.version != cur.version:
			t.Errorf("profile %s is now version %s (pinned %s): review its golden diff, then re-pin with -update-canary", name, cur.version, pin.version)
		}
	}
	for name := range pins {
		if _, ok := current[name]; !ok && !*updateCanary {
			t.Errorf("canary pins profile %s, which is not built in any more", name)
		}
	}
	if *updateCanary {
		writeCanary(t, current)
	}
}

func readCanary(t *testing.T) map[string]canaryPin {
	f, err := os.Open(canaryFile)
	if err != nil {
		if os.IsNotExist(err) && *updateCanary {
			return nil
		}
		t.Fatal(err)
	}
	defer f.Close()
	pins := map[string]canaryPin{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			t.Fatalf("%s: bad line %q", canaryFile, line)
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			t.Fatalf("%s: bad count in %q", canaryFile, line)
		}
		pins[f[0]] = canaryPin{f[1], n, f[3]}
	}
	return pins
}

func writeCanary(t *testing.T, pins map[string]canaryPin) {
	var b strings.Builder
	b.WriteString("# Golden canary (normalize/canary_test.go): per built-in profile, the version and a sha256\n")
	b.WriteString("# over the outputs and canonical hashes of a fixed input set (testdata/urls, their dirty\n")
	b.WriteString("# variants, WPT inputs). Re-pin only after bumping the profile version: -update-canary.\n")
	b.WriteString("# profile\tversion\tinputs\tdigest\n")
	names := make([]string, 0, len(pins))
	for n := range pins {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := pins[n]
		fmt.Fprintf(&b, "%s\t%s\t%d\t%s\n", n, p.version, p.inputs, p.digest)
	}
	if err := os.WriteFile(canaryFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
