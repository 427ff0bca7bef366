// Package pipeline runs a function over a stream of items on several
// goroutines and delivers the results in input order, with a bounded number
// of items in flight (so memory does not grow with the input).
package pipeline

import "sync"

// Stage is one ordered parallel map.
type Stage[I, O any] struct {
	// Workers is the number of goroutines calling Work (at least 1).
	Workers int
	// Depth bounds the items between the source and the sink (at least
	// Workers); it is the memory bound: Depth items and results at most.
	Depth int
	// Work maps one item. It runs concurrently with itself.
	Work func(I) O
	// Sink receives the results in the order the source emitted the items.
	// An error stops the source and is returned by Run.
	Sink func(O) error
	// Idle, when set, is called before the sink waits for the next result:
	// the place to flush buffered output, so that interactive input is
	// answered line by line while bulk input is written in large blocks.
	Idle func() error
}

type job[I, O any] struct {
	in  I
	out chan O
}

// Run feeds the items that src emits through Work to Sink. emit returns
// false once the sink has failed; src should then return. Run returns the
// sink's error if there was one, else src's.
func (s *Stage[I, O]) Run(src func(emit func(I) bool) error) error {
	workers := max(s.Workers, 1)
	depth := max(s.Depth, workers)
	jobs := make(chan *job[I, O], depth)
	order := make(chan *job[I, O], depth)
	stop := make(chan struct{})

	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				j.out <- s.Work(j.in)
			}
		}()
	}

	var srcErr error
	go func() {
		defer close(order)
		defer close(jobs)
		srcErr = src(func(in I) bool {
			j := &job[I, O]{in: in, out: make(chan O, 1)}
			select {
			case order <- j:
			case <-stop:
				return false
			}
			select {
			case jobs <- j:
				return true
			case <-stop:
				j.out <- *new(O) // nobody works on it; unblock a draining sink
				return false
			}
		})
	}()

	sinkErr := s.drain(order)
	if sinkErr != nil {
		close(stop)
		for j := range order { // let the source and the workers finish
			<-j.out
		}
	}
	wg.Wait()
	if sinkErr != nil {
		return sinkErr
	}
	return srcErr
}

// drain passes results to the sink in order until the source is done or
// the sink fails.
func (s *Stage[I, O]) drain(order chan *job[I, O]) error {
	for {
		var j *job[I, O]
		var ok bool
		select {
		case j, ok = <-order:
		default:
			if err := s.idle(); err != nil {
				return err
			}
			j, ok = <-order
		}
		if !ok {
			return nil
		}
		var o O
		select {
		case o = <-j.out:
		default:
			if err := s.idle(); err != nil {
				return err
			}
			o = <-j.out
		}
		if err := s.Sink(o); err != nil {
			return err
		}
	}
}

func (s *Stage[I, O]) idle() error {
	if s.Idle == nil {
		return nil
	}
	return s.Idle()
}
