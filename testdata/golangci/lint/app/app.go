// Package app shares one token channel between lib's resolving and lib's slow
// work, which resolverpool can only tell from lib's facts.
package app

import "queuecheck.example/gcllint/lib"

// Run dials addrs and archives paths, at most four at a time.
func Run(addrs, paths []string) {
	sem := make(chan struct{}, 4)
	for _, a := range addrs {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			_ = lib.Dial(a)
		}()
	}
	for _, p := range paths {
		sem <- struct{}{} // want:resolverpool
		_ = lib.Archive(p, nil)
		<-sem
	}
}
