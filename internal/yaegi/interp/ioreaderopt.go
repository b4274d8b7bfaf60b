package interp // toolscript patch 208

// toolscript patch 208: the wrappers of patch 197 for a script reader
// converted to io.Reader with the optional methods of io.RuneScanner,
// which fmt.Fscan, Fscanf and Fscanln look for on it and read through
// (of the packages scripts may import, no other probes io.RuneReader,
// io.ByteReader, io.ByteScanner or io.ByteWriter). The reader's wrapper
// had Read (and WriteTo) only, so fmt read through Read instead: a
// silent difference of the calls made and of what was read.

import (
	"io"
	"reflect"
)

type _scriptReaderRS struct {
	IValue      interface{}
	WRead       func([]byte) (int, error)
	WReadRune   func() (rune, int, error)
	WUnreadRune func() error
	node        interface{}
}

func (w _scriptReaderRS) Read(p []byte) (int, error)   { return w.WRead(p) }
func (w _scriptReaderRS) ReadRune() (rune, int, error) { return w.WReadRune() }
func (w _scriptReaderRS) UnreadRune() error            { return w.WUnreadRune() }
func (w _scriptReaderRS) MarshalJSON() ([]byte, error) { return marshalOptWrapped(w.node, w.IValue) }

type _scriptReaderWTRS struct {
	IValue      interface{}
	WRead       func([]byte) (int, error)
	WReadRune   func() (rune, int, error)
	WUnreadRune func() error
	WWriteTo    func(io.Writer) (int64, error)
	node        interface{}
}

func (w _scriptReaderWTRS) Read(p []byte) (int, error)         { return w.WRead(p) }
func (w _scriptReaderWTRS) ReadRune() (rune, int, error)       { return w.WReadRune() }
func (w _scriptReaderWTRS) UnreadRune() error                  { return w.WUnreadRune() }
func (w _scriptReaderWTRS) WriteTo(d io.Writer) (int64, error) { return w.WWriteTo(d) }
func (w _scriptReaderWTRS) MarshalJSON() ([]byte, error)       { return marshalOptWrapped(w.node, w.IValue) }

// scriptReaderWrapper returns the wrapper of a value of the script type
// t converted to io.Reader where t has ReadRune and UnreadRune, with
// WriteTo if wt; nil otherwise.
func scriptReaderWrapper(t *itype, wt bool) reflect.Type {
	if !scriptHasMethod(t, "ReadRune", "func() (int32, int, error)") || !scriptHasMethod(t, "UnreadRune", "func() error") {
		return nil
	}
	if wt {
		return reflect.TypeOf(_scriptReaderWTRS{})
	}
	return reflect.TypeOf(_scriptReaderRS{})
}

var _ io.RuneScanner = _scriptReaderRS{}
