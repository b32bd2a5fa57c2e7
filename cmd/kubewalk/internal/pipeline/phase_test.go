package pipeline

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// lineLog is a slog handler that keeps each record's message and
// attributes as a line, and signals each one.
type lineLog struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	lines chan string
}

func (l *lineLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *lineLog) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *lineLog) WithGroup(string) slog.Handler            { return l }
func (l *lineLog) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	r.Attrs(func(a slog.Attr) bool {
		b.WriteString(" " + a.Key + "=")
		if a.Key == "took" || a.Key == "so far" {
			b.WriteString("D") // durations vary
		} else {
			b.WriteString(a.Value.String())
		}
		return true
	})
	l.mu.Lock()
	l.buf.WriteString(b.String() + "\n")
	l.mu.Unlock()
	select {
	case l.lines <- b.String():
	default: // the test has what it waits for
	}
	return nil
}

// A phase that ends before it is worth mentioning prints one line, what
// ended and how long it took.
func TestPhaseQuick(t *testing.T) {
	defer func(q time.Duration) { phaseQuiet = q }(phaseQuiet)
	phaseQuiet = time.Hour
	l := &lineLog{lines: make(chan string, 2)}
	done := Phase(slog.New(l), "analysing", "tag", "v1.37.2")
	done("facts from cache", "tag", "v1.37.2")
	done("twice") // once only
	if got, want := l.buf.String(), "facts from cache tag=v1.37.2 took=D\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A long phase says it is under way, then how long so far, then ends.
func TestPhaseLong(t *testing.T) {
	defer func(q, e time.Duration) { phaseQuiet, phaseEvery = q, e }(phaseQuiet, phaseEvery)
	phaseQuiet, phaseEvery = time.Nanosecond, time.Nanosecond
	l := &lineLog{lines: make(chan string, 2)}
	done := Phase(slog.New(l), "analysing", "tag", "v1.37.2")
	if got := <-l.lines; got != "analysing tag=v1.37.2" {
		t.Errorf("first line %q", got)
	}
	if got := <-l.lines; got != "analysing tag=v1.37.2 so far=D" {
		t.Errorf("second line %q", got)
	}
	done("analysed", "tag", "v1.37.2")
	lines := strings.Split(strings.TrimSpace(l.buf.String()), "\n")
	if last := lines[len(lines)-1]; last != "analysed tag=v1.37.2 took=D" {
		t.Errorf("last line %q", last)
	}
}
