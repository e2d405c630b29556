// Package aws is a stub of the AWS SDK for Go v2's aws package.
package aws

// String returns a pointer to s.
func String(s string) *string { return &s }

// ToString returns the string p points to, or "".
func ToString(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
