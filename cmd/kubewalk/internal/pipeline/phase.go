package pipeline

import (
	"log/slog"
	"sync"
	"time"
)

// Phase reports one phase of long work (fetch, analyse, render) on log at
// Info: nothing while it is quick, a line after phaseQuiet saying it is
// under way (what, args), then one every phaseEvery with the time so far,
// so minutes of work are never silent; done ends it with one line, msg
// and args, and the time it took. --quiet (log level Error) hides it all.
func Phase(log *slog.Logger, what string, args ...any) (done func(msg string, args ...any)) {
	start := time.Now()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTimer(phaseQuiet)
		defer t.Stop()
		said := false
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				if !said {
					log.Info(what, args...)
					said = true
				} else {
					log.Info(what, append(append([]any(nil), args...), "so far", time.Since(start).Round(time.Second))...)
				}
				t.Reset(phaseEvery)
			}
		}
	}()
	var once sync.Once
	return func(msg string, dargs ...any) {
		once.Do(func() {
			close(stop)
			wg.Wait()
			log.Info(msg, append(dargs, "took", took(time.Since(start)))...)
		})
	}
}

// A phase that ends within phaseQuiet (a cached tree, cached facts) says
// only that it ended; the arbitrary 3 s is about when a silent terminal
// starts to look stuck.
var (
	phaseQuiet = 3 * time.Second
	phaseEvery = 30 * time.Second
)

// took rounds a duration for a phase line: milliseconds below a second,
// tenths of a second below a minute, seconds above.
func took(d time.Duration) time.Duration {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond)
	case d < time.Minute:
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}
