package policy

import (
	goos "os"
	"reflect"

	osfile "github.com/toolscript/toolscript/internal/policy/os"
)

// standIns maps the native types scripts get in place of Go's to the
// types they stand for: toolscript's *os.File (os.Stdout, os.Stderr) has
// only Write, WriteString and Name of Go's *os.File methods.
var standIns = map[reflect.Type]reflect.Type{
	reflect.TypeFor[*osfile.File](): reflect.TypeFor[*goos.File](),
}

// StandIns returns the native types scripts get in place of others, each
// with the type it stands for (interp.Options.StandIns): a type assertion
// of a value of one to an interface type that only the real type
// implements fails at run time rather than answer otherwise than Go. The
// map is shared by every interpreter: do not modify it.
func StandIns() map[reflect.Type]reflect.Type { return standIns }
