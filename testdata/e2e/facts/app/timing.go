package app

import (
	"context"
	"log"
	"net"
	"time"

	"queuecheck.example/facts/lib"
)

// Each waittiming finding below needs a fact of lib: a wait behind a method
// of no known shape, a timer written by hand, a pause between attempts.

func lookup(ctx context.Context, g *lib.Gatekeeper, host string) error {
	start := time.Now()
	if err := g.Admit(ctx); err != nil {
		return err
	}
	defer g.Leave()
	_, err := net.LookupHost(host)
	log.Printf("lookup took %v", time.Since(start)) // want:waittiming
	return err
}

func timed(ctx context.Context, g *lib.Gatekeeper, host string) error {
	sw := lib.StartStopwatch("lookup")
	defer sw.Stop() // want:waittiming
	if err := g.Admit(ctx); err != nil {
		return err
	}
	defer g.Leave()
	_, err := net.LookupHost(host)
	return err
}

func retried(host string) error {
	start := time.Now()
	var err error
	for i := 0; i < 3; i++ {
		if _, err = net.LookupHost(host); err == nil {
			break
		}
		lib.Pause()
	}
	log.Printf("lookup took %v", time.Since(start)) // want:waittiming
	return err
}
