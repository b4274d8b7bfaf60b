package os

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"testing"
)

// TestFile checks that toolscript's os.File writes to its stream, names
// itself as Go's *os.File prints (%T, %v) and returns os.ErrInvalid for
// a nil *File, as Go's does.
func TestFile(t *testing.T) {
	var buf bytes.Buffer
	f := NewFile(&buf, "/dev/stdout")
	var w io.Writer = f
	fmt.Fprint(w, "a")
	if _, err := f.WriteString("b"); err != nil {
		t.Fatal(err)
	}
	if _, ok := w.(io.StringWriter); !ok {
		t.Fatal("no io.StringWriter")
	}
	if got := buf.String(); got != "ab" {
		t.Fatalf("wrote %q", got)
	}
	if got := fmt.Sprintf("%T %s", f, f.Name()); got != "*os.File /dev/stdout" {
		t.Fatalf("got %q", got)
	}
	if v := fmt.Sprintf("%v", f); !strings.HasPrefix(v, "&{0x") {
		t.Fatalf("%%v is %q", v)
	}
	var nf *File
	if _, err := nf.Write(nil); err != fs.ErrInvalid {
		t.Fatalf("nil File: %v", err)
	}
}
