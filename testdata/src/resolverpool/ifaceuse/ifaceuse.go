// want package:"implementations: .*resolverpool/ifacelib.remote as resolverpool/ifacelib.Sink .*resolverpool/ifacelib.disk as resolverpool/ifacelib.Sink"

// Package ifaceuse writes records to every sink on a fixed set of workers;
// only the facts of packages it imports say what the sinks do.
package ifaceuse

import "resolverpool/ifacemid"

func run(records <-chan []byte, urls, paths []string) {
	sinks := ifacemid.Sinks(urls, paths)
	for range 4 {
		go func() {
			for rec := range records {
				for _, s := range sinks {
					_ = s.Write(rec) // want `worker pool records runs slow work \(ifacelib.disk.Write → os.WriteFile\) beside work that resolves hostnames \(ifacelib.remote.Write → http.Post\), so lookups wait behind it; by hand, run the slow implementations on workers or a pool of their own`
				}
			}
		}()
	}
}
