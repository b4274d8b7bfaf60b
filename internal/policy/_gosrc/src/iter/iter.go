// Package iter is toolscript's interpreted copy of the standard iter
// package: the iterator types Seq and Seq2, which range statements accept
// as Go 1.23 defines (for v := range seq, for k, v := range seq2), and
// Pull and Pull2, which turn a push iterator into a pair of next and stop
// functions.
//
// Pull runs the iterator in a goroutine of the script and hands each value
// over a channel, where the standard library uses a coroutine; the values,
// the order and the panics are the same. Calling stop ends that goroutine
// (yield returns false to the iterator); one never stopped nor exhausted
// ends with the execution.
package iter

// Seq is an iterator over sequences of individual values. When called as
// seq(yield), seq calls yield(v) for each value v in the sequence,
// stopping early if yield returns false.
type Seq[V any] func(yield func(V) bool)

// Seq2 is an iterator over sequences of pairs of values, most commonly
// key-value pairs. When called as seq(yield), seq calls yield(k, v) for
// each pair (k, v) in the sequence, stopping early if yield returns false.
type Seq2[K, V any] func(yield func(K, V) bool)

// Pull converts the "push-style" iterator sequence seq into a
// "pull-style" iterator accessed by the two functions next and stop.
//
// Next returns the next value in the sequence and a boolean indicating
// whether the value is valid. When the sequence is over, next returns the
// zero value and false. It is valid to call next after reaching the end of
// the sequence or after calling stop. These calls will continue to return
// the zero value and false.
//
// Stop ends the iteration. It must be called when the caller is no longer
// interested in next values and next has not yet signaled that the
// sequence is over (with a false boolean return). It is valid to call stop
// multiple times and when next has already returned false.
//
// A panic of seq is raised again by the call of next or stop that resumed
// it.
func Pull[V any](seq func(yield func(V) bool)) (next func() (V, bool), stop func()) {
	var v V
	p := &puller{run: func(yield func() bool) {
		seq(func(x V) bool {
			v = x
			return yield()
		})
	}}
	next = func() (V, bool) {
		if !p.resume(true) {
			v = *new(V)
			return v, false
		}
		return v, true
	}
	stop = func() {
		p.resume(false)
		v = *new(V)
	}
	return next, stop
}

// Pull2 converts the "push-style" iterator sequence seq into a
// "pull-style" iterator accessed by the two functions next and stop, as
// Pull does for pairs of values.
func Pull2[K, V any](seq func(yield func(K, V) bool)) (next func() (K, V, bool), stop func()) {
	var k K
	var v V
	p := &puller{run: func(yield func() bool) {
		seq(func(x K, y V) bool {
			k, v = x, y
			return yield()
		})
	}}
	next = func() (K, V, bool) {
		if !p.resume(true) {
			k, v = *new(K), *new(V)
			return k, v, false
		}
		return k, v, true
	}
	stop = func() {
		p.resume(false)
		k, v = *new(K), *new(V)
	}
	return next, stop
}

// puller runs an iterator in its own goroutine, one step per resume.
type puller struct {
	run      func(yield func() bool)
	started  bool
	stopped  bool          // stop was called: yield returns false
	done     bool          // the iterator returned (or was never started)
	resumeC  chan bool     // true: go on to the next value; false: stop
	yieldC   chan struct{} // the iterator yielded a value or returned
	panicV   any
	panicked bool
}

// resume starts the iterator (on the first call of next) or resumes it,
// with more telling its yield whether to go on, and reports whether it
// yielded a value. A panic of the iterator is raised again here.
func (p *puller) resume(more bool) bool {
	if p.done {
		return false
	}
	if !more {
		p.stopped = true
	}
	if !p.started {
		if !more {
			p.done = true
			return false
		}
		p.started = true
		p.resumeC = make(chan bool)
		p.yieldC = make(chan struct{})
		go p.loop()
	} else {
		p.resumeC <- more
	}
	<-p.yieldC
	if p.panicked {
		v := p.panicV
		p.panicked = false
		p.panicV = nil
		panic(v)
	}
	return !p.done
}

// loop is the goroutine of the iterator.
func (p *puller) loop() {
	defer func() {
		if r := recover(); r != nil {
			p.panicV = r
			p.panicked = true
		}
		p.done = true
		p.yieldC <- struct{}{}
	}()
	p.run(func() bool {
		if p.stopped {
			return false
		}
		p.yieldC <- struct{}{}
		more := <-p.resumeC
		return more
	})
}
