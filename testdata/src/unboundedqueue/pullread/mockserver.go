package pullread // why: test-support

import (
	"net"
	"testing"
)

// Negative: test support outside a _test.go file (blocky's mock UDP
// upstream): a file that imports package testing runs under tests only.
func mockUpstream(t *testing.T, ln *net.UDPConn) {
	for {
		buf := make([]byte, 1024)
		n, addr, err := ln.ReadFromUDP(buf)
		if err != nil {
			t.Log(err)
			return
		}
		go func() {
			ln.WriteToUDP(buf[:n], addr)
		}()
	}
}
