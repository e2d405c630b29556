// The rule test-support skips this file: it imports package testing.
package why

import "testing"

var _ testing.TB
