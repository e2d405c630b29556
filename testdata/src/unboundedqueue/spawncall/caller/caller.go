// Package caller calls the helper that spawns per call: its own functions
// start no goroutine, so it has no per-call fact of its own.
package caller

import "unboundedqueue/spawncall/helper"

// Refresh calls functions that spawn per call, once per call of its own.
func Refresh(c *helper.Client, url string) {
	c.Refresh(url)
	helper.Save(c, url)
}
