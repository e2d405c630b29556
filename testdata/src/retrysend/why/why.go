// Package why is retrysend's -why case: run with -retrysend.why=all, every
// non-blocking send retrysend does not report says which rule kept it quiet.
package why

var wake = make(chan struct{}, 1)

func notify() {
	select {
	case wake <- struct{}{}: // want `not reported: coalescing-wakeup: the send carries no data`
	default:
	}
}
