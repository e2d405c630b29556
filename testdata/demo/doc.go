// Package demo is a small service with one instance of each hazard queuecheck
// finds. Run the suite on it from the repository root:
//
//	go run ./cmd/queuecheck ./testdata/demo/...
package demo
