package normalize

import (
	"encoding/json"
	"os"
	"testing"
)

// wptCase is one object of WPT's url/resources/urltestdata.json.
type wptCase struct {
	Input    string  `json:"input"`
	Base     *string `json:"base"`
	Href     string  `json:"href"`
	Failure  bool    `json:"failure"`
	Protocol string  `json:"protocol"`
	Hostname string  `json:"hostname"`
	Port     string  `json:"port"`
	Pathname string  `json:"pathname"`
	Search   string  `json:"search"`
	Hash     string  `json:"hash"`
}

func loadWPT(t testing.TB, path string) []wptCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	var cases []wptCase
	for _, r := range raw {
		if len(r) > 0 && r[0] == '"' {
			continue // a comment string
		}
		var c wptCase
		if err := json.Unmarshal(r, &c); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	return cases
}

func TestWPTParse(t *testing.T) {
	cases := loadWPT(t, "../testdata/wpt/urltestdata.json")
	fails := 0
	for _, c := range cases {
		var base *URL
		if c.Base != nil {
			b, err := Parse(*c.Base)
			if err != nil {
				if !c.Failure {
					t.Errorf("base %q: %v", *c.Base, err)
				}
				continue
			}
			base = b
		}
		u, err := ParseRef(base, c.Input)
		if c.Failure {
			if err == nil {
				t.Errorf("ParseRef(%q, %q) = %q, want failure", str(c.Base), c.Input, u.String())
				fails++
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseRef(%q, %q): %v, want %q", str(c.Base), c.Input, err, c.Href)
			fails++
			continue
		}
		if u.String() != c.Href {
			t.Errorf("ParseRef(%q, %q) = %q, want %q", str(c.Base), c.Input, u.String(), c.Href)
			fails++
		}
	}
	t.Logf("%d cases, %d failures", len(cases), fails)
}

func str(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}
