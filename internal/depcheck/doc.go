// Package depcheck holds the tests that keep toolscript's dependencies to
// the modules chosen on purpose (and github.com/traefik/yaegi at the
// version internal/yaegi is a copy of). It has no code.
package depcheck
