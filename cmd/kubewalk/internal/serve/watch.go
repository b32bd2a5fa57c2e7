package serve

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watch watches Options.Watch (recursively, new subdirectories included)
// and rebuilds after each burst of changes, until ctx is done. Changes
// that arrive during a build cause one more build when it ends. Build
// errors are published (and logged), not returned: Watch returns only
// when ctx is done or the watcher fails.
func (s *Server) Watch(ctx context.Context) error {
	if len(s.opts.Watch) == 0 {
		<-ctx.Done()
		return nil
	}
	w, err := s.newWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	var (
		timer   *time.Timer
		fire    <-chan time.Time
		pending bool
		running = make(chan struct{}, 1) // holds a token while a build runs
		built   = make(chan struct{}, 1)
	)
	start := func() {
		pending = false
		running <- struct{}{}
		go func() {
			s.Rebuild(ctx) // publishes and logs its own outcome
			<-running
			built <- struct{}{}
		}()
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-s.done:
			return nil
		case err, ok := <-w.Errors:
			if !ok {
				return errors.New("serve: watcher closed")
			}
			s.opts.Log.Warn("watching", "err", err)
		case ev, ok := <-w.Events:
			if !ok {
				return errors.New("serve: watcher closed")
			}
			if !s.changed(w, ev) {
				continue
			}
			if timer == nil {
				timer = time.NewTimer(s.opts.Debounce)
			} else {
				timer.Reset(s.opts.Debounce)
			}
			fire = timer.C
		case <-fire:
			fire = nil
			if len(running) > 0 {
				pending = true
				continue
			}
			start()
		case <-built:
			if pending {
				start()
			}
		}
	}
}

// newWatcher watches every directory under Options.Watch, and the
// directory each is in: a watched directory removed and made again (rm -rf
// W; mkdir W) loses its watch with the directory, and only its parent sees
// the new one.
func (s *Server) newWatcher() (*fsnotify.Watcher, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	for _, d := range s.opts.Watch {
		dirs, err := walkDirs(d)
		if err == nil {
			err = w.Add(filepath.Dir(absPath(d)))
		}
		if err == nil {
			for _, sub := range dirs {
				if err = w.Add(sub); err != nil {
					break
				}
			}
		}
		if err != nil {
			w.Close()
			return nil, err
		}
	}
	return w, nil
}

// changed reports whether ev should trigger a rebuild, and watches a
// directory it created.
func (s *Server) changed(w *fsnotify.Watcher, ev fsnotify.Event) bool {
	if ev.Op == fsnotify.Chmod || !watchable(ev.Name) || s.beside(ev.Name) {
		return false
	}
	if ev.Has(fsnotify.Create) {
		if st, err := os.Stat(ev.Name); err == nil && st.IsDir() {
			if dirs, err := walkDirs(ev.Name); err == nil {
				for _, d := range dirs {
					w.Add(d)
				}
			}
		}
	}
	s.opts.Log.Debug("changed", "file", ev.Name, "op", ev.Op.String())
	return true
}

// beside reports whether name is in the directory of a watched directory
// (watched for that directory alone) without being one, nor in one. Paths
// are compared absolute: the parent's events come as the parent was
// added, and --walkthroughs . has ".." for parent.
func (s *Server) beside(name string) bool {
	name = absPath(name)
	for _, d := range s.opts.Watch {
		d = absPath(d)
		if name == d || strings.HasPrefix(name, d+string(filepath.Separator)) {
			return false
		}
	}
	for _, d := range s.opts.Watch {
		if filepath.Dir(name) == filepath.Dir(absPath(d)) {
			return true
		}
	}
	return false
}

// absPath is p absolute and clean, p itself cleaned when the working
// directory is gone.
func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}
