//go:build never

package tagged

// Excluded by its build constraint: never analyzed, never reported.
var hazard = make(chan [4096]byte, 100000)
