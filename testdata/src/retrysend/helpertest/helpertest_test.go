package helpertest

import "testing"

func TestTryPut(t *testing.T) {
	b := &box{in: make(chan int, 1)}
	if !b.tryPut(1) || b.tryPut(2) {
		t.Fatal("want one slot")
	}
}
