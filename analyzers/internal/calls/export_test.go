package calls

import "io"

// SetWarnings sends Verify's warnings to w until the returned function is
// called.
func SetWarnings(w io.Writer) (restore func()) {
	old := warnings
	warnings = w
	return func() { warnings = old }
}
