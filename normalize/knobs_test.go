package normalize_test

import (
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// knobCase is one row of a knob table: the input, the expected output (or
// "!kind"), and, in a comment, the rule or issue it pins.
type knobCase struct{ in, want string }

// checkKnob normalizes every row with whatwg changed by edit, checks the
// output, that it is a fixed point, and that the reference (no fast path)
// agrees.
func checkKnob(t *testing.T, name string, edit func(p *normalize.Profile), rows []knobCase) {
	t.Helper()
	p := normalize.MustLookup("whatwg").Profile()
	p.Name = name
	edit(&p)
	n, err := normalize.New(p)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	ref, err := normalize.NewReference(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rows {
		got, err := n.Normalize(c.in)
		if err != nil {
			got = "!" + normalize.KindOf(err)
		}
		if got != c.want {
			t.Errorf("%s: Normalize(%q) = %q (%v), want %q", name, c.in, got, err, c.want)
			continue
		}
		if r, rerr := ref.Normalize(c.in); r != got && rerr == nil {
			t.Errorf("%s: Normalize(%q) = %q, the reference gives %q", name, c.in, got, r)
		}
		if err == nil {
			if again, err := n.Normalize(got); again != got {
				t.Errorf("%s: not idempotent: %q → %q → %q (%v)", name, c.in, got, again, err)
			}
		}
	}
}

// TestDecodeUnreservedAlone: percent.decode_unreserved without
// encode_stray is idempotent (issue 15: "%%36%31" → "%61" → "a"): a hex
// digit that would complete an escape with a stray '%' before it stays
// encoded.
func TestDecodeUnreservedAlone(t *testing.T) {
	checkKnob(t, "decode-alone", func(p *normalize.Profile) { p.Percent = normalize.PercentRules{DecodeUnreserved: true} }, []knobCase{
		{"http://example.com/%%36%31", "http://example.com/%%361"}, // issue 15: '%' then a decoded "6" would make "%61"
		{"http://example.com/%6%31", "http://example.com/%6%31"},   // '%' and a hex digit, then a decoded "1"
		{"http://example.com/%%341", "http://example.com/%%341"},   // a decoded "4" then a literal "1"
		{"http://example.com/%%7E%41", "http://example.com/%~A"},   // '~' is no hex digit; after it 'A' is safe
		{"http://example.com/%zz%41", "http://example.com/%zzA"},   // "%zz" is stray but "z" is no hex digit
		{"http://example.com/a%/%31", "http://example.com/a%/1"},   // the stray '%' ends another segment
		{"http://example.com/?a=%&b=%31", "http://example.com/?a=%&b=1"},
		{"http://example.com/#%%41", "http://example.com/#%%41"}, // fragment too
	})
}
