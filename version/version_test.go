package version

import (
	"regexp"
	"testing"
)

// semver 2.0.0 §2 (major.minor.patch) with an optional pre-release (§9).
var semver = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?$`)

func TestVersionIsSemver(t *testing.T) {
	if !semver.MatchString(Version) {
		t.Errorf("Version = %q, not semver major.minor.patch", Version)
	}
}
