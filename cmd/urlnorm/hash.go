package main

import "github.com/urlnorm/urlnorm/normalize"

func init() {
	register(rowCmd(&rowCommand{
		name:    "hash",
		summary: "canonical hash of each input line/row (canonical_hash)",
		result:  "hash",
		help: help{
			synopsis: "hash [flags] [FILE…|-]",
			about: `Writes the hex digest of the canonical URL of every input, one output row
per input line or row, in input order — what canonical_hash returns in SQL:
sha256 (64 hex digits) for most profiles, xxHash64 (16) for edge-gateway.
Use it for idempotency keys and joins. Inputs, formats, invalid inputs and
exit status are as for 'urlnorm normalize' (the TSV/CSV result column is
"hash").`,
			examples: `echo 'https://example.com/a?b=1' | urlnorm hash
urlnorm hash --profile rfc3986 --format tsv urls.txt > keys.tsv
urlnorm hash --format csv --column url links.csv`,
			exit: exitStatusFiles,
		},
		value: func(n *normalize.Normalizer, dst []byte, in string) ([]byte, error) {
			return n.AppendHash(dst, in)
		},
	}))
}
