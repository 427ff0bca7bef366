module github.com/urlnorm/urlnorm

go 1.26.1

require (
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/net v0.62.0
)

require golang.org/x/text v0.43.0 // indirect
