//go:build linux

// Package tagged has files for one platform only.
package tagged

// Platform names the platform.
const Platform = "linux"
