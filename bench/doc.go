// Package bench is toolscript's end-to-end benchmark harness. It has no
// code of its own: its benchmarks run the script corpus (package scripts)
// against the demo tools, one b.Run per script, next to the phases that
// make up an execution and a native Go floor.
//
//	go test -run '^$' -bench . -benchmem -count 10 ./bench/ > new.txt
//	benchstat old.txt new.txt
package bench
