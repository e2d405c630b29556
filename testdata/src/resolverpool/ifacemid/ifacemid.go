// want package:"implementations: .*resolverpool/ifacelib.remote as resolverpool/ifacelib.Sink .*resolverpool/ifacelib.disk as resolverpool/ifacelib.Sink"

// Package ifacemid picks the Sinks from a configuration: it converts nothing
// itself, but passes on what ifacelib's fact says, so that packages that
// import only this one see the implementations too.
package ifacemid // why: package-resolves-nothing

import "resolverpool/ifacelib"

// Sinks returns the configured sinks.
func Sinks(urls, paths []string) []ifacelib.Sink {
	var out []ifacelib.Sink
	for _, u := range urls {
		out = append(out, ifacelib.Remote(u))
	}
	for _, p := range paths {
		out = append(out, ifacelib.Disk(p))
	}
	return out
}
