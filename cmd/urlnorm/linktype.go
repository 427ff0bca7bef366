package main

import "github.com/urlnorm/urlnorm/normalize"

func init() {
	register(rowCmd(&rowCommand{
		name:    "linktype",
		summary: "homepage / section / informative for each input (url_link_type)",
		result:  "link_type",
		help: help{
			synopsis: "linktype [flags] [FILE…|-]",
			about: `Classifies every input URL as homepage, section or informative (the
clara-policy heuristics), one output row per input line or row, in input
order — what url_link_type returns in SQL. The classification does not
depend on a profile; --profile only sets the url and hash fields of
--format jsonl. Inputs, formats, invalid inputs and exit status are as for
'urlnorm normalize' (the TSV/CSV result column is "link_type").`,
			examples: `echo 'https://www.sepe.es/HomeSepe/Personas' | urlnorm linktype
urlnorm linktype --format tsv citations.txt | cut -f2 | sort | uniq -c`,
			exit: exitStatusFiles,
		},
		value: func(_ *normalize.Normalizer, dst []byte, in string) ([]byte, error) {
			t, err := normalize.ClassifyURL(in)
			return append(dst, t...), err
		},
	}))
}
