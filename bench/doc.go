// Package bench holds toolscript's end-to-end go test benchmarks: the
// script corpus (package scripts) against the demo tools, one b.Run per
// script, a tool round trip against its native call, and a fan-out.
//
//	go test -run '^$' -bench . -benchmem -count 10 ./bench/ > new.txt
//	benchstat old.txt new.txt
//
// The benchmark runner that prints the published table (BENCHMARKS.md at
// the repository's root) is bench/cmd/bench, built on package
// bench/harness; the peers it compares with live in the separate module
// bench/peers.
package bench
