package urllist

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestReadCleans(t *testing.T) {
	p := filepath.Join(t.TempDir(), "u.txt")
	// BOM on the first line (kasztp.txt), CRLF ends, empty lines, no final newline.
	data := "\ufeffhttp://a.example/\r\n\r\nhttp://b.example/x\n\nhttp://c.example"
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"http://a.example/", "http://b.example/x", "http://c.example"}
	if !slices.Equal(got, want) {
		t.Fatalf("Read = %q, want %q", got, want)
	}
}
