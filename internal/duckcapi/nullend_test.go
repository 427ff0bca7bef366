package duckcapi

import (
	"testing"

	"github.com/urlnorm/urlnorm/internal/bridge"
)

// The C side reads a VARCHAR row's NULL flag from its end with the flag
// the bridge writes there.
func TestNullEnd(t *testing.T) {
	if got := cNullEnd(); got != bridge.NullEnd {
		t.Fatalf("C's DUCKCAPI_NULL_END is %#x, bridge.NullEnd %#x", got, uint64(bridge.NullEnd))
	}
}
