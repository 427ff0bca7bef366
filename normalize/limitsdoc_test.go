package normalize

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestLimitsDoc: docs/security.md and the Limits section of
// docs/profiles.md state the bounds the code has.
func TestLimitsDoc(t *testing.T) {
	if maxLimitLength != 1<<30 || DefaultMaxLength != 65536 {
		t.Fatalf("the docs say 1 GiB and 65,536 bytes; the code has %d and %d", maxLimitLength, DefaultMaxLength)
	}
	for _, path := range []string{"../docs/security.md", "../docs/profiles.md"} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc := string(data)
		for _, want := range []string{
			fmt.Sprintf("| %d bytes |", maxPatternLen),
			fmt.Sprintf("%d instructions", maxPatternInsts),
			"65,536 bytes by default", "at most 1 GiB",
			fmt.Sprintf("`limits.max_params`: %d by default", DefaultMaxParams),
			"| 252 bytes |",
		} {
			if !strings.Contains(doc, want) {
				t.Errorf("%s does not say %q", path, want)
			}
		}
	}
}
