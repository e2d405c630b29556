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
