package sqltype

import (
	"strings"
	"testing"
)

// JSON's Record quotes a member that is a piece of a plain src without
// testing it (within), and tests every other one: with src plain or not
// (a byte to escape at its start, middle or end), members that are pieces
// of src at every offset and length, pieces that run one byte past src's
// end into a '"' (not within it), copies of src's pieces (other memory)
// holding bytes to escape, and "", the JSON is WriteMembers'.
func TestJSONRecordWithinSrc(t *testing.T) {
	typ := MustParse("STRUCT(a VARCHAR, n INTEGER, b VARCHAR, c VARCHAR)")
	base := "https://user@www.example.co.uk:8443/a/b.html?q=1#top"
	for _, src := range []string{
		base,                        // plain
		`"` + base,                  // not plain at its start
		base[:20] + `\` + base[20:], // in its middle
		base + "\x01",               // at its end
		base[:10] + "é" + base[10:], // not ASCII
	} {
		big := src + `"` // a byte to escape just past src
		src = big[:len(src)]
		for i := 0; i <= len(src); i++ {
			for k := 0; i+k <= len(src); k++ {
				piece := src[i : i+k]
				past := big[i:min(i+k+1, len(big))]  // through big's last byte: past src when it reaches its end
				other := strings.Clone(`"\` + piece) // not src's memory
				fs := []Field{{S: piece}, {N: int64(k)}, {S: past}, {S: other, Null: k%5 == 4}}
				var jr, jm JSON
				jr.Reset(typ, nil)
				jm.Reset(typ, nil)
				r, own := Fields(&jr, len(fs))
				copy(own, fs)
				WriteRecord(&jr, r, typ, own, src)
				WriteMembers(&jm, typ, fs)
				if string(jr.Buf) != string(jm.Buf) {
					t.Fatalf("src %q, piece [%d:%d]: Record %s, member by member %s", src, i, i+k, jr.Buf, jm.Buf)
				}
			}
		}
	}
}
