// Package progress draws a one-line progress bar on stderr while a long
// command runs — only when stderr is a terminal, and only once the work has
// lasted a moment, so pipes, logs and quick runs never see it.
package progress

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Stat is a snapshot of the work: bytes done out of Total (-1 when
// unknown, e.g. reading a pipe) and items (rows) done.
type Stat struct {
	Done, Total, Items int64
}

// Delay is how long work runs before the bar appears. The environment
// variable URLNORM_PROGRESS_DELAY (a Go duration, e.g. "0s") overrides it,
// for demos and tests.
var Delay = time.Second

const tick = 200 * time.Millisecond

// Bar is a progress bar and the writer for messages printed while it is
// shown (it clears its line, prints the message and redraws).
type Bar struct {
	w     io.Writer
	label string
	poll  func() Stat
	width int

	mu    sync.Mutex
	start time.Time
	shown bool
	stop  chan struct{}
	done  chan struct{}
}

// Start starts a bar on w if w is a terminal, else returns a Bar that only
// passes messages through.
func Start(w io.Writer, label string, poll func() Stat) *Bar {
	b := &Bar{w: w, label: label, poll: poll, start: time.Now()}
	f, ok := w.(*os.File)
	if !ok || !isTerminal(f) {
		return b
	}
	b.width = termWidth(f)
	b.stop, b.done = make(chan struct{}), make(chan struct{})
	go b.loop(delay())
	go b.onInterrupt()
	return b
}

// onInterrupt erases the bar when Ctrl-C (or a kill) ends the program, so
// the shell prompt does not land in the middle of it, then lets the
// signal do what it would have done.
func (b *Bar) onInterrupt() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	select {
	case s := <-sig:
		b.mu.Lock()
		b.clear()
		signal.Reset(s)
		if p, err := os.FindProcess(os.Getpid()); err == nil {
			p.Signal(s)
		}
	case <-b.stop:
	}
}

// Off returns a Bar that never draws (--no-progress).
func Off(w io.Writer) *Bar { return &Bar{w: w} }

func delay() time.Duration {
	if s := os.Getenv("URLNORM_PROGRESS_DELAY"); s != "" {
		if d, err := time.ParseDuration(s); err == nil {
			return d
		}
	}
	return Delay
}

func (b *Bar) loop(wait time.Duration) {
	defer close(b.done)
	select {
	case <-time.After(wait):
	case <-b.stop:
		return
	}
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		b.mu.Lock()
		b.draw()
		b.mu.Unlock()
		select {
		case <-t.C:
		case <-b.stop:
			return
		}
	}
}

// draw writes the bar; b.mu is held.
func (b *Bar) draw() {
	line := Render(b.label, b.poll(), time.Since(b.start), b.width)
	io.WriteString(b.w, "\r"+line+"\x1b[K")
	b.shown = true
}

// clear erases the bar's line; b.mu is held.
func (b *Bar) clear() {
	if b.shown {
		io.WriteString(b.w, "\r\x1b[K")
		b.shown = false
	}
}

// Write prints a message (whole lines) above the bar.
func (b *Bar) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	wasShown := b.shown
	b.clear()
	n, err := b.w.Write(p)
	if wasShown {
		b.draw()
	}
	return n, err
}

// Stop removes the bar. Messages written afterwards pass straight through.
func (b *Bar) Stop() {
	if b.stop == nil {
		return
	}
	close(b.stop)
	<-b.done
	b.stop = nil
	b.mu.Lock()
	b.clear()
	b.mu.Unlock()
}

// Render formats one bar line of at most width columns (0: no limit):
//
//	normalize  42% [========>           ] 1.1/2.7 GiB  3.41M rows  412k rows/s  ETA 0:12
//
// With an unknown total it shows what was done and the rate.
func Render(label string, s Stat, elapsed time.Duration, width int) string {
	var sb strings.Builder
	sb.WriteString(label)
	secs := elapsed.Seconds()
	if s.Total > 0 {
		frac := min(float64(s.Done)/float64(s.Total), 1)
		const barLen = 24
		fill := int(frac * barLen)
		bar := strings.Repeat("=", fill)
		if fill < barLen {
			bar += ">" + strings.Repeat(" ", barLen-fill-1)
		}
		fmt.Fprintf(&sb, " %3d%% [%s] %s/%s", int(frac*100), bar, size(s.Done), size(s.Total))
	} else {
		fmt.Fprintf(&sb, "  %s read", size(s.Done))
	}
	fmt.Fprintf(&sb, "  %s rows", count(s.Items))
	if secs > 0 {
		fmt.Fprintf(&sb, "  %s rows/s", count(int64(float64(s.Items)/secs)))
	}
	if s.Total > 0 && s.Done > 0 && s.Done < s.Total {
		left := time.Duration(float64(s.Total-s.Done) / float64(s.Done) * float64(elapsed))
		sb.WriteString("  ETA " + clock(left))
	} else {
		sb.WriteString("  " + clock(elapsed))
	}
	line := sb.String()
	if width > 1 && len(line) > width-1 {
		line = line[:width-1]
	}
	return line
}

// count formats n with an SI suffix: 999, 1.2k, 3.41M.
func count(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1e6:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	case n < 1e9:
		return fmt.Sprintf("%.2fM", float64(n)/1e6)
	}
	return fmt.Sprintf("%.2fG", float64(n)/1e9)
}

// size formats a byte count in binary units.
func size(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
}

// clock formats a duration as m:ss or h:mm:ss.
func clock(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
