package normalize

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// Result's JSON is the record of ResultFields: every key, in order, NULLs
// and empty lists included; language keeps the original segment and
// removed parameters say whether they were path parameters.
func TestResultJSON(t *testing.T) {
	r := Result{URL: "https://a.example/es/x?b=1&c=2", Hash: "h", Profile: "p", Version: "1", LinkType: "section",
		Fragment: "", HasFragment: true,
		Removed:    []Param{{Key: "jsessionid", Value: "J", Reason: "session", InPath: true}},
		Pagination: &PageInfo{Param: "page", Value: "2"},
		Language:   &LanguageInfo{Original: "ca", Preferred: "es"},
		Alternates: []Alternate{{Lang: "ca", URL: "https://a.example/ca/x"}},
		Rewrites:   []Rewrite{{FromPrefix: "https://o.example/", ToPrefix: "https://a.example/"}},
	}
	got, err := r.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"url":"https://a.example/es/x?b=1&c=2","hash":"h","link_type":"section","profile":"p","version":"1",` +
		`"fragment":"","removed_params":[{"key":"jsessionid","value":"J","reason":"session","in_path":true}],` +
		`"pagination":{"param":"page","value":"2"},"language":{"original":"ca","preferred":"es"},` +
		`"alternates":[{"lang":"ca","url":"https://a.example/ca/x"}],` +
		`"rewrites":[{"from_prefix":"https://o.example/","to_prefix":"https://a.example/"}]}`
	if string(got) != want {
		t.Errorf("MarshalJSON =\n%s\nwant\n%s", got, want)
	}
	// json.Marshal uses it (and escapes '&' as it does everywhere).
	if m, _ := json.Marshal(r); !json.Valid(m) || string(m) != strings.ReplaceAll(want, "&", `\u0026`) {
		t.Errorf("json.Marshal = %s", m)
	}
	// Absent parts: NULL, and empty lists (never null).
	got, _ = json.Marshal(&Result{URL: "u"})
	want = `{"url":"u","hash":"","link_type":"","profile":"","version":"","fragment":null,"removed_params":[],` +
		`"pagination":null,"language":null,"alternates":[],"rewrites":[]}`
	if string(got) != want {
		t.Errorf("json.Marshal(empty) =\n%s\nwant\n%s", got, want)
	}
}

// Every field's value has the form of its declared type.
func TestResultFieldsTyped(t *testing.T) {
	n := MustLookup("clara")
	r, err := n.Canonicalize("http://sepe.es/HomeSepe/;jsessionid=1?utm_source=x&page=2#top")
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range r.Record() {
		if err := resultType.Members[i].Type.Check(v); err != nil {
			t.Errorf("%s: %v", ResultFields[i].Name, err)
		}
	}
}

// resolve_url has the limit of every other function (issue 16 item 4):
// base, reference and result over DefaultMaxLength are too_long, before
// any parsing.
func TestResolveTooLong(t *testing.T) {
	long := strings.Repeat("a", DefaultMaxLength)
	for _, tc := range []struct {
		name, base, ref string
		want            string // kind code; "" = resolves
	}{
		{"base at the limit", "http://a.example/" + long[len("http://a.example/"):], "x", ""},
		{"base over the limit", "http://a.example/" + long, "x", "too_long"},
		{"reference over the limit", "http://a.example/", long + "b", "too_long"},
		{"100 MB reference", "http://a.example/", strings.Repeat("b", 100<<20), "too_long"},
		// two halves within the limit whose join is not
		{"result over the limit", "http://a.example/" + long[:DefaultMaxLength/2], "?" + long[:DefaultMaxLength/2], "too_long"},
		// percent-encoding grows the reference threefold
		{"encoded result over the limit", "http://a.example/", strings.Repeat("é", DefaultMaxLength/4), "too_long"},
	} {
		got, err := Resolve(tc.base, tc.ref)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && KindOf(err) != tc.want:
			t.Errorf("%s: %d bytes, %v; want %s", tc.name, len(got), err, tc.want)
		case tc.want != "" && !errors.Is(err, ErrLimit):
			t.Errorf("%s: %v is not ErrLimit", tc.name, err)
		case len(got) > DefaultMaxLength:
			t.Errorf("%s: result of %d bytes", tc.name, len(got))
		}
	}
}
