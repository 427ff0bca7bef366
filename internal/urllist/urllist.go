// Package urllist reads URL lists: one URL per line, as in
// ../shared/data/urls and testdata/urls.
package urllist

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// Read returns the URLs of the file at path, one per line. A UTF-8
// byte-order mark, CR line ends and empty lines are removed (kasztp.txt
// starts with a BOM; some upstream lists have CRLF ends and a trailing
// empty line): the cleaning ../shared/notes/peer-performance.md used.
func Read(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		s := strings.TrimSuffix(strings.TrimPrefix(sc.Text(), "\ufeff"), "\r")
		if s != "" {
			lines = append(lines, s)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("urllist: %s: %w", path, err)
	}
	return lines, nil
}
