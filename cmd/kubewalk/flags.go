package main

import (
	"cmp"
	"errors"
	"strings"
	"time"

	"github.com/kubewalk/kubewalk/source"
	"github.com/spf13/pflag"
)

// sourceFlags are the flags of every command that needs a tree. They mean
// the same thing on every command.
type sourceFlags struct {
	tag    string
	source string
	repo   string
	stall  time.Duration
}

func (s *sourceFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&s.tag, "tag", source.DefaultTag, "Kubernetes release tag")
	s.registerSource(fs)
}

// registerSource registers --source and --repo, and makes every flag of fs
// that names a release refuse an empty value. build and check register a
// repeatable --tag of their own and diff has --from and --to, all before
// calling this, so the rule is written once for all of them.
func (s *sourceFlags) registerSource(fs *pflag.FlagSet) {
	fs.StringVar(&s.source, "source", "auto", "where the source comes from: auto (git, falling back to goproxy), git, goproxy, or the path of an existing checkout")
	fs.StringVar(&s.repo, "repo", "", "git remote to clone from (default the upstream repository; a local path or file:// URL works for mirrors)")
	fs.DurationVar(&s.stall, "stall-timeout", source.DefaultStallTimeout, "give up on a git remote or module proxy that sends nothing for this long (0: wait for ever)")
	for _, name := range releaseFlags {
		if f := fs.Lookup(name); f != nil {
			f.Value = releaseValue{f.Value}
			if f.DefValue == "[]" {
				// pflag tells a zero default by the Value's concrete
				// type; without this the help of a repeatable --tag
				// would end in "(default [])".
				f.DefValue = ""
			}
		}
	}
}

// releaseFlags are the flags that name a release tag.
var releaseFlags = []string{"tag", "from", "to"}

// releaseValue refuses an empty release tag. The source package reads an
// empty Options.Tag as "the default release", so without this `--tag ""`
// (an unset shell variable, say) quietly built another release than the
// one asked for; a flag error is a usage error (exit 2).
type releaseValue struct{ pflag.Value }

func (v releaseValue) Set(s string) error {
	return nonEmptyValue{v.Value, "empty release tag: give one like " + source.DefaultTag + ", or leave the flag out for that default"}.Set(s)
}

// nonEmptyValue is a flag that refuses a value of only spaces, with msg.
type nonEmptyValue struct {
	pflag.Value
	msg string
}

func (v nonEmptyValue) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New(v.msg)
	}
	return v.Value.Set(s)
}

// minDurationValue is a duration flag that refuses a value under min,
// with msg.
type minDurationValue struct {
	pflag.Value
	min time.Duration
	msg string
}

func (v minDurationValue) Set(s string) error {
	if d, err := time.ParseDuration(s); err == nil && d < v.min {
		return errors.New(v.msg)
	}
	return v.Value.Set(s)
}

func (s *sourceFlags) options(g *globals, tag string) source.Options {
	return source.Options{
		Tag:      tag,
		Source:   s.source,
		Repo:     s.repo,
		CacheDir: g.cacheDir,
		Progress: g.progress(),
		Logger:   g.log,
		// 0 on the command line is no limit; in Options, the default.
		StallTimeout: cmp.Or(s.stall, -1),
	}
}
