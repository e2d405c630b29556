package ifaces

import "testing"

// A test double converted to Store in a test file is no implementation of
// the program's.
func TestStore(t *testing.T) {
	var s Store = fileStore{"x"}
	_ = s
}
