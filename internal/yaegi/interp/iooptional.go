package interp // toolscript patch 197

// toolscript patch 197: a script value converted to io.Writer or
// io.Reader keeps the optional methods the io, bufio and fmt functions
// look for on it: io.WriteString, io.MultiWriter's writer and
// bufio.Writer.WriteString an io.StringWriter's WriteString, io.Copy and
// bufio.Writer.ReadFrom a destination's ReadFrom (io.ReaderFrom), io.Copy
// and bufio.Reader.WriteTo a source's WriteTo (io.WriterTo). The
// generated wrapper of the interface has its own methods only, so the
// native code called Write or Read instead, a silent difference of the
// calls made. The wrapper of a script value with one of these methods
// (its own or promoted from an embedded field) is one of the types below,
// chosen by its method set. Like a generated wrapper it records the
// value's script type in its node field (patch 152).

import (
	"io"
	"reflect"
)

var (
	ioWriterRType = reflect.TypeOf((*io.Writer)(nil)).Elem()
	ioReaderRType = reflect.TypeOf((*io.Reader)(nil)).Elem()
)

type _scriptWriterWS struct {
	IValue       interface{}
	WWrite       func([]byte) (int, error)
	WWriteString func(string) (int, error)
	node         interface{}
}

func (w _scriptWriterWS) Write(p []byte) (int, error)       { return w.WWrite(p) }
func (w _scriptWriterWS) WriteString(s string) (int, error) { return w.WWriteString(s) }
func (w _scriptWriterWS) MarshalJSON() ([]byte, error)      { return marshalOptWrapped(w.node, w.IValue) }

type _scriptWriterRF struct {
	IValue    interface{}
	WReadFrom func(io.Reader) (int64, error)
	WWrite    func([]byte) (int, error)
	node      interface{}
}

func (w _scriptWriterRF) Write(p []byte) (int, error)         { return w.WWrite(p) }
func (w _scriptWriterRF) ReadFrom(r io.Reader) (int64, error) { return w.WReadFrom(r) }
func (w _scriptWriterRF) MarshalJSON() ([]byte, error)        { return marshalOptWrapped(w.node, w.IValue) }

type _scriptWriterRFWS struct {
	IValue       interface{}
	WReadFrom    func(io.Reader) (int64, error)
	WWrite       func([]byte) (int, error)
	WWriteString func(string) (int, error)
	node         interface{}
}

func (w _scriptWriterRFWS) Write(p []byte) (int, error)         { return w.WWrite(p) }
func (w _scriptWriterRFWS) WriteString(s string) (int, error)   { return w.WWriteString(s) }
func (w _scriptWriterRFWS) ReadFrom(r io.Reader) (int64, error) { return w.WReadFrom(r) }
func (w _scriptWriterRFWS) MarshalJSON() ([]byte, error)        { return marshalOptWrapped(w.node, w.IValue) }

type _scriptReaderWT struct {
	IValue   interface{}
	WRead    func([]byte) (int, error)
	WWriteTo func(io.Writer) (int64, error)
	node     interface{}
}

func (w _scriptReaderWT) Read(p []byte) (int, error)         { return w.WRead(p) }
func (w _scriptReaderWT) WriteTo(d io.Writer) (int64, error) { return w.WWriteTo(d) }
func (w _scriptReaderWT) MarshalJSON() ([]byte, error)       { return marshalOptWrapped(w.node, w.IValue) }

// marshalOptWrapped is a generated wrapper's MarshalJSON (marshalWrapped
// of internal/policy/stdlib).
func marshalOptWrapped(nod, v interface{}) ([]byte, error) {
	if w, ok := nod.(wrappedScript); ok {
		return w.MarshalWrapped(v)
	}
	return marshalHeld(nil, reflect.ValueOf(v))
}

// scriptIOWrapper returns the wrapper of a value of the script type t
// converted to the interface it, io.Writer or io.Reader, where t has one
// of the optional methods above; nil otherwise.
func scriptIOWrapper(t *itype, it reflect.Type) reflect.Type {
	if t == nil || isBin(t) || isInterface(t) || t.cat == nilT {
		return nil
	}
	switch it {
	case ioWriterRType:
		ws := scriptHasMethod(t, "WriteString", "func(string) (int, error)")
		rf := scriptHasMethod(t, "ReadFrom", "func(io.Reader) (int64, error)")
		switch {
		case ws && rf:
			return reflect.TypeOf(_scriptWriterRFWS{})
		case ws:
			return reflect.TypeOf(_scriptWriterWS{})
		case rf:
			return reflect.TypeOf(_scriptWriterRF{})
		}
	case ioReaderRType:
		// toolscript patch 208: with ReadRune and UnreadRune too.
		wt := scriptHasMethod(t, "WriteTo", "func(io.Writer) (int64, error)")
		if w := scriptReaderWrapper(t, wt); w != nil {
			return w
		}
		if wt { // toolscript patch 208
			return reflect.TypeOf(_scriptReaderWT{})
		}
	}
	return nil
}
