//go:build !linux

package tagged

// Platform names the platform.
const Platform = "other"
