//go:build go1.20

// This file predates the builtin min: a capacity that names a constant is
// reported without a fix, and the message says what to do by hand.
package nomin

import "chansize/crosspkg/q"

var old = make(chan [128]byte, q.Shared) // want `channel buffer of 200000 items of 128 B \(up to 24.4 MiB\) stores overload instead of pushing back; bound it by acceptable wait × consumer rate; by hand, write that bound in place of q.Shared \(min, which the fix uses, is not available in this file\)`

// A literal needs no min: the fix writes the bound.
var literal = make(chan [128]byte, 200000) // want `channel buffer of 200000 items of 128 B`
