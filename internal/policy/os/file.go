// Package os is the type of toolscript's os.Stdout and os.Stderr: an
// *os.File as far as a script can tell (%T prints *os.File, %v an
// address), which writes to the execution's stream. It has the methods
// of *os.File it can offer as Go does (Write, WriteString, Name); a
// script calling another (Close, Stat, Read, ...) fails to compile,
// naming it.
package os

import (
	"io"
	"io/fs"
)

// File is toolscript's os.File. Its layout is Go's (a pointer to an
// unexported struct), so that fmt prints a value of it as Go prints an
// *os.File: &{0xc000012345}.
type File struct {
	*file
}

type file struct {
	w    io.Writer
	name string
}

// NewFile returns the File named name (os.Stdout's is "/dev/stdout")
// that writes to w.
func NewFile(w io.Writer, name string) *File {
	return &File{&file{w: w, name: name}}
}

// Name returns the name of the file, as os.File's does.
func (f *File) Name() string { return f.name }

// Write writes p to the file's stream. A nil *File returns Go's
// os.ErrInvalid, as os.File's does.
func (f *File) Write(p []byte) (int, error) {
	if f == nil {
		return 0, fs.ErrInvalid
	}
	return f.w.Write(p)
}

// WriteString is Write of the bytes of s.
func (f *File) WriteString(s string) (int, error) {
	if f == nil {
		return 0, fs.ErrInvalid
	}
	if sw, ok := f.w.(io.StringWriter); ok {
		return sw.WriteString(s)
	}
	return f.w.Write([]byte(s))
}
