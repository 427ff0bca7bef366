// Command splice replaces marked sections of a Markdown file with the
// contents of other files, so that README.md carries the latest published
// tables:
//
//	go run ./cmd/splice README.md go-results=results/results.md sql-results=results/sql.md
//
// A section is everything between the lines "<!-- begin NAME -->" and
// "<!-- end NAME -->"; the marker lines stay.
package main

import (
	"fmt"
	"os"
	"strings"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: splice FILE NAME=PATH...")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, "splice:", err)
		os.Exit(1)
	}
}

func run(file string, pairs []string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	doc := string(b)
	for _, p := range pairs {
		name, path, ok := strings.Cut(p, "=")
		if !ok {
			return fmt.Errorf("%q: want NAME=PATH", p)
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if doc, err = Splice(doc, name, string(body)); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
	}
	return os.WriteFile(file, []byte(doc), 0o644)
}

// Splice replaces the body of section name in doc.
func Splice(doc, name, body string) (string, error) {
	begin, end := "<!-- begin "+name+" -->\n", "<!-- end "+name+" -->"
	i := strings.Index(doc, begin)
	if i < 0 {
		return "", fmt.Errorf("no %q line", strings.TrimSpace(begin))
	}
	i += len(begin)
	j := strings.Index(doc[i:], end)
	if j < 0 {
		return "", fmt.Errorf("no %q line after %q", end, strings.TrimSpace(begin))
	}
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	return doc[:i] + body + doc[i+j:], nil
}
