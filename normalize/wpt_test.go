package normalize_test

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

const (
	wptFile   = "../testdata/wpt/urltestdata.json"           // vendored unmodified
	extraFile = "../testdata/urlnorm_extra_urltestdata.json" // our own cases, same format
)

// wptCase is one object of WPT's url/resources/urltestdata.json.
type wptCase struct {
	Input    string  `json:"input"`
	Base     *string `json:"base"`
	Href     string  `json:"href"`
	Failure  bool    `json:"failure"`
	Protocol string  `json:"protocol"`
	Username string  `json:"username"`
	Password string  `json:"password"`
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

// TestWPT: profile whatwg reproduces href for every case of WPT's
// urltestdata.json (through Resolve where a base is given) and rejects
// every failure case; the parsed components match too (issue 2 "Must
// show" 1). Our own cases run the same way from a separate file.
func TestWPT(t *testing.T) {
	for _, file := range []string{wptFile, extraFile} {
		cases := loadWPT(t, file)
		failed := 0
		for _, c := range cases {
			if !checkWPT(t, c) {
				failed++
			}
		}
		t.Logf("%s: %d cases, %d failed", file, len(cases), failed)
	}
}

func checkWPT(t *testing.T, c wptCase) bool {
	t.Helper()
	whatwg := normalize.MustLookup("whatwg")
	var got string
	var err error
	if c.Base == nil {
		got, err = whatwg.Normalize(c.Input)
	} else {
		got, err = normalize.Resolve(*c.Base, c.Input)
	}
	if c.Failure {
		if err == nil {
			t.Errorf("(%q, base %s) = %q, want failure", c.Input, base(c), got)
			return false
		}
		return true
	}
	if err != nil || got != c.Href {
		t.Errorf("(%q, base %s) = %q, %v; want %q", c.Input, base(c), got, err, c.Href)
		return false
	}
	var b *normalize.URL
	if c.Base != nil {
		b, _ = normalize.Parse(*c.Base)
	}
	u, err := normalize.ParseRef(b, c.Input)
	if err != nil {
		t.Errorf("ParseRef(%q): %v", c.Input, err)
		return false
	}
	port := ""
	if u.Port() >= 0 {
		port = strconv.Itoa(u.Port())
	}
	search, hash := "", ""
	if q, _ := u.Query(); q != "" {
		search = "?" + q
	}
	if f, _ := u.Fragment(); f != "" {
		hash = "#" + f
	}
	for _, f := range [][3]string{
		{"protocol", u.Scheme() + ":", c.Protocol},
		{"username", u.Username(), c.Username},
		{"password", u.Password(), c.Password},
		{"hostname", u.Host(), c.Hostname},
		{"port", port, c.Port},
		{"pathname", u.Path(), c.Pathname},
		{"search", search, c.Search},
		{"hash", hash, c.Hash},
	} {
		if f[1] != f[2] {
			t.Errorf("(%q, base %s).%s = %q, want %q", c.Input, base(c), f[0], f[1], f[2])
			return false
		}
	}
	return true
}

func base(c wptCase) string {
	if c.Base == nil {
		return "null"
	}
	return strconv.Quote(*c.Base)
}
