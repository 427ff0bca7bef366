module github.com/urlnorm/urlnorm/benchmarks

go 1.26.1

replace github.com/urlnorm/urlnorm => ../

require (
	github.com/PuerkitoBio/purell v1.2.1
	github.com/cespare/xxhash/v2 v2.3.0
	github.com/duckdb/duckdb-go/v2 v2.10505.0
	github.com/mattn/go-sqlite3 v1.14.53
	github.com/nlnwa/whatwg-url v0.6.2
	github.com/urlnorm/urlnorm v0.0.0-00010101000000-000000000000
)

require (
	github.com/bits-and-blooms/bitset v1.20.0 // indirect
	github.com/duckdb/duckdb-go-bindings v0.10505.0 // indirect
	github.com/duckdb/duckdb-go-bindings/lib/linux-amd64 v0.10505.0 // indirect
	github.com/go-viper/mapstructure/v2 v2.5.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
