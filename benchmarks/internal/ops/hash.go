package ops

import "github.com/urlnorm/urlnorm/normalize"

// HashOps are the canonical hash's forms (issue 18), next to Hash/default
// and the floors: the digest appended to a reused buffer (what the SQL
// adapters call: no string), the xxhash64 digest of default's canonical
// URL (canonical_hash(url, 'default', 'xxhash64')) and the BIGINT join
// key (canonical_key(url)).
func HashOps() []Op {
	n := normalize.MustLookup("default")
	appendHash := bufferOp("AppendHash", "default", (*normalize.Normalizer).AppendHash)
	xxh := stringOp("Hash", "default", func(n *normalize.Normalizer, s string) (string, error) {
		return n.HashWith(s, normalize.HashXXHash64)
	})
	xxh.Name += " xxhash64"
	key := Op{Name: "Key/default", Group: GroupUrlnorm, Profile: "default",
		New: stateless(func(s string) bool {
			k, err := n.Key(s)
			SinkU64 = uint64(k)
			return err == nil
		})}
	return []Op{appendHash, xxh, key}
}
