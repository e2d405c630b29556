// Package u sizes a buffer by another package's constant, its only use of
// that package: the fix keeps the import used.
package u

import "chansize/crosspkg/q"

var c = make(chan [128]byte, q.Shared) // want `channel buffer of 200000 items of 128 B`
