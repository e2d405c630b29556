// Package missing imports a package that does not exist.
package missing

import "example.com/odd/nosuchpackage"

var _ = nosuchpackage.X
