package executor

import "sync"

// dispatcher is the FIFO queue and worker bookkeeping shared by the
// goroutine and process backends. Workers loop on next; the backend decides
// what running a task means.
type dispatcher struct {
	mu      sync.Mutex
	cond    sync.Cond
	queue   []*Task
	head    int
	idle    int // workers in cond.Wait not yet signalled
	workers []*worker
	closed  bool
	wg      sync.WaitGroup
	max     int
	spawn   func(*worker) // starts a worker goroutine; nil: workers are fixed
}

type worker struct {
	cur *Task // the task it runs, guarded by dispatcher.mu
}

func (d *dispatcher) init(max int, spawn func(*worker)) {
	d.max, d.spawn = max, spawn
	d.cond.L = &d.mu
}

// add registers a worker that the caller starts; it must call exit.
func (d *dispatcher) add(w *worker) {
	d.mu.Lock()
	d.workers = append(d.workers, w)
	d.wg.Add(1)
	d.mu.Unlock()
}

// push queues t, or returns false after shutdown.
func (d *dispatcher) push(t *Task) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return false
	}
	d.queue = append(d.queue, t)
	d.wake()
	return true
}

// wake gets a worker to the queue: an idle one, or a new one below the
// bound. d.mu is held.
func (d *dispatcher) wake() {
	if d.idle > 0 {
		d.idle--
		d.cond.Signal()
		return
	}
	if d.spawn != nil && len(d.workers) < d.max {
		w := &worker{}
		d.workers = append(d.workers, w)
		d.wg.Add(1)
		d.spawn(w)
	}
}

// next ends w's previous task and returns its next one, blocking while the
// queue is empty; nil means the dispatcher is shut down and drained.
func (d *dispatcher) next(w *worker) *Task {
	d.mu.Lock()
	defer d.mu.Unlock()
	w.cur = nil
	for d.head == len(d.queue) && !d.closed {
		d.idle++
		d.cond.Wait()
	}
	if d.head == len(d.queue) {
		return nil
	}
	t := d.queue[d.head]
	d.queue[d.head] = nil
	d.head++
	if d.head == len(d.queue) {
		d.queue, d.head = d.queue[:0], 0
	} else if d.head >= 1024 && d.head*2 >= len(d.queue) {
		n := copy(d.queue, d.queue[d.head:])
		clear(d.queue[n:])
		d.queue, d.head = d.queue[:n], 0
	}
	w.cur = t
	return t
}

// exit removes a worker. If work is still queued (a goroutine worker left
// early through runtime.Goexit), another takes its place.
func (d *dispatcher) exit(w *worker) {
	d.mu.Lock()
	for i, x := range d.workers {
		if x == w {
			d.workers = append(d.workers[:i], d.workers[i+1:]...)
			break
		}
	}
	if d.head < len(d.queue) {
		d.wake()
	}
	d.mu.Unlock()
	d.wg.Done()
}

// shutdown closes the queue. Unless wait, it cancels queued and running
// tasks with ErrShutdown. With join it returns when all workers have exited.
func (d *dispatcher) shutdown(wait, join bool) {
	d.mu.Lock()
	d.closed = true
	var cancel []*Task
	if !wait {
		cancel = append(cancel, d.queue[d.head:]...)
		clear(d.queue)
		d.queue, d.head = nil, 0
		for _, w := range d.workers {
			if w.cur != nil {
				cancel = append(cancel, w.cur)
			}
		}
	}
	d.idle = 0
	d.cond.Broadcast()
	d.mu.Unlock()
	for _, t := range cancel {
		t.cancelWith(ErrShutdown)
	}
	if join {
		d.wg.Wait()
	}
}

func (d *dispatcher) isClosed() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.closed
}
