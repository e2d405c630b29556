// Package lib's functions are classified by resolverpool in this package and
// seen by package app only as facts: the cross-package case.
package lib

import (
	"net"
	"os"
)

// Dial resolves the host name in addr, through an unexported helper.
func Dial(addr string) error { return dial(addr) }

func dial(addr string) error {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	return c.Close()
}

// Archive is slow work: it writes a file.
func Archive(path string, data []byte) error { return os.WriteFile(path, data, 0o644) }
