package pipeline

import (
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"
)

// TestOrder: results arrive in input order although workers finish out of
// order.
func TestOrder(t *testing.T) {
	for _, workers := range []int{1, 2, 8} {
		var got []int
		st := Stage[int, int]{
			Workers: workers,
			Depth:   3 * workers,
			Work: func(i int) int {
				time.Sleep(time.Duration(rand.IntN(200)) * time.Microsecond)
				return i * i
			},
			Sink: func(o int) error { got = append(got, o); return nil },
		}
		err := st.Run(func(emit func(int) bool) error {
			for i := range 2000 {
				if !emit(i) {
					return nil
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2000 {
			t.Fatalf("workers=%d: %d results, want 2000", workers, len(got))
		}
		for i, o := range got {
			if o != i*i {
				t.Fatalf("workers=%d: result %d is %d, want %d", workers, i, o, i*i)
			}
		}
	}
}

// TestBounded: the source never runs more than Depth items ahead of the
// sink, so memory is bounded whatever the input size.
func TestBounded(t *testing.T) {
	const depth = 4
	var emitted, sunk, worst atomic.Int64
	st := Stage[int, int]{
		Workers: 2,
		Depth:   depth,
		Work:    func(i int) int { return i },
		Sink: func(int) error {
			time.Sleep(50 * time.Microsecond) // a slow writer
			sunk.Add(1)
			return nil
		},
	}
	st.Run(func(emit func(int) bool) error {
		for i := range 500 {
			if ahead := emitted.Load() - sunk.Load(); ahead > worst.Load() {
				worst.Store(ahead)
			}
			emitted.Add(1)
			emit(i)
		}
		return nil
	})
	// depth in the order queue, one held by the sink, one being emitted
	if w := worst.Load(); w > depth+2 {
		t.Errorf("the source ran %d items ahead of the sink, want ≤ %d", w, depth+2)
	}
}

// TestSinkError stops the source, returns the sink's error and does not
// leak a blocked goroutine (Run returns).
func TestSinkError(t *testing.T) {
	boom := errors.New("disk full")
	n := 0
	st := Stage[int, int]{
		Workers: 2,
		Depth:   2,
		Work:    func(i int) int { return i },
		Sink: func(o int) error {
			if n++; n == 10 {
				return boom
			}
			return nil
		},
	}
	emitted := 0
	err := st.Run(func(emit func(int) bool) error {
		for i := range 1_000_000 {
			if !emit(i) {
				return nil
			}
			emitted++
		}
		return nil
	})
	if err != boom {
		t.Fatalf("Run = %v, want the sink's error", err)
	}
	if emitted > 100 {
		t.Errorf("the source emitted %d items after the sink failed at 10", emitted)
	}
}

// TestSourceError is returned after the items before it are sunk.
func TestSourceError(t *testing.T) {
	bad := errors.New("read error")
	var got []int
	st := Stage[int, int]{Workers: 2, Work: func(i int) int { return i },
		Sink: func(o int) error { got = append(got, o); return nil }}
	err := st.Run(func(emit func(int) bool) error {
		emit(1)
		emit(2)
		return bad
	})
	if err != bad || len(got) != 2 {
		t.Errorf("Run = %v with %v sunk, want the source's error after [1 2]", err, got)
	}
}

// TestIdle is called when the sink catches up: output is flushed before
// waiting for slow input.
func TestIdle(t *testing.T) {
	var idles int
	var atIdle []int
	var got []int
	st := Stage[int, int]{
		Workers: 1,
		Work:    func(i int) int { return i },
		Sink:    func(o int) error { got = append(got, o); return nil },
		Idle:    func() error { idles++; atIdle = append(atIdle, len(got)); return nil },
	}
	st.Run(func(emit func(int) bool) error {
		for i := range 3 {
			emit(i)
			time.Sleep(20 * time.Millisecond) // a person typing
		}
		return nil
	})
	// the sink waited for each item, and flushed what it had each time
	if idles < 3 || atIdle[len(atIdle)-1] != 3 {
		t.Errorf("Idle called %d times with %v results sunk, want ≥ 3 and a final flush after 3", idles, atIdle)
	}
}
