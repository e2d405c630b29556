package main_test

import "testing"

// TestWaittimingDispatchAcrossPackages checks that the wait-inside fact
// crosses two package boundaries through dynamic calls: package connpool's
// interface method Pooler.Get has it from the one implementation that
// queues for a turn (the union, not every implementation); package client
// reaches it through a func type's receiver (cmdable), a func field (the
// hook) and the first attempt of a retry loop; package app times a ping
// and bounds one with a deadline. Both findings need both packages' facts,
// standalone and under go vet, whose vetx files carry them.
func TestWaittimingDispatchAcrossPackages(t *testing.T) {
	wantAppFindings(t, "dispatch", 2)
}

// TestWaittimingImplementationInView checks that a call of an interface
// method whose own package declares no implementation (store.Backend) is
// taken for the wait of the implementation in view where it is made: the
// fact of package limited's Get, which queues for a slot first, reaches
// package app through its import, standalone and under go vet.
func TestWaittimingImplementationInView(t *testing.T) {
	wantAppFindings(t, "implwait", 2)
}

// TestWaittimingHandedValue checks that a call of another package's
// function that is handed a value as an interface of one method
// (kmsg.RequestWith and its Requestor) is taken for the value's method: the
// fact of package broker's Request, which queues for a slot first, reaches
// package app through the value it hands over, standalone and under go vet
// (where package kmsg is analyzed too and has no fact of its own).
func TestWaittimingHandedValue(t *testing.T) {
	wantAppFindings(t, "handed", 2)
}
