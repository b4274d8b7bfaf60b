package engine

import "github.com/toolscript/toolscript/internal/policy"

// Packages returns the sorted import paths of the standard packages a
// script may import besides its tool packages: an allowlist of packages
// that reach neither the file system, the network, the environment nor
// other processes, whose package variables scripts get as read-only
// copies, plus toolscript's own "os" (Exit, Stdout, Stderr, Args, Getenv
// and Environ, all confined to the execution) and "slices", "maps" and
// "cmp" (generic helpers interpreted from source, compiled only when a
// script imports them). Each call returns a new slice: changing it
// changes nothing of what scripts can import.
//
// Deliberately absent: os (the real one), os/exec, net, net/http, syscall,
// unsafe, reflect, runtime, plugin, io/fs, io/ioutil, path/filepath,
// crypto/rand, database/sql, log/syslog, testing.
func Packages() []string { return policy.Paths() }
