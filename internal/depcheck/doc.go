// Package depcheck holds the test that keeps toolscript's dependencies to
// the modules chosen on purpose. It has no code.
package depcheck
