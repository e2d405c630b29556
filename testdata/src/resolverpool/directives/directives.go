// Package directives checks suppression of resolverpool findings.
package directives

import (
	"net"
	"time"
)

func run(hosts []string) {
	sem := make(chan struct{}, 2)
	for _, h := range hosts {
		sem <- struct{}{}
		_, _ = net.LookupHost(h)
		<-sem
	}
	//queuecheck:ignore resolverpool the sleep is a rate limit shared on purpose
	sem <- struct{}{}
	time.Sleep(time.Second)
	<-sem
	// want +1 `token channel sem of 2 runs slow work \(time.Sleep\)`
	sem <- struct{}{}
	time.Sleep(time.Second)
	<-sem
	//queuecheck:ignore resolverpool nothing to silence here // want `silences nothing here; remove it`
	_ = hosts
}
