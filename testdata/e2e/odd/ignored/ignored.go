//go:build ignore

// A program run with go run, excluded from every build.
package main

func main() { _ = make(chan [4096]byte, 100000) }
