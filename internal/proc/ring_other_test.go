//go:build unix && !(linux && (amd64 || arm64))

package proc

// registerRingRoles registers nothing: this build has no shared memory.
func registerRingRoles() {}
