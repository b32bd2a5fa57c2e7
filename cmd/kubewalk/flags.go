package main

import (
	"github.com/kubewalk/kubewalk/source"
	"github.com/spf13/pflag"
)

// sourceFlags are the flags of every command that needs a tree. They mean
// the same thing on every command.
type sourceFlags struct {
	tag    string
	source string
	repo   string
}

func (s *sourceFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&s.tag, "tag", source.DefaultTag, "Kubernetes release tag")
	s.registerSource(fs)
}

func (s *sourceFlags) registerSource(fs *pflag.FlagSet) {
	fs.StringVar(&s.source, "source", "auto", "where the source comes from: auto (git, falling back to goproxy), git, goproxy, or the path of an existing checkout")
	fs.StringVar(&s.repo, "repo", "", "git remote to clone from (default the upstream repository; a local path or file:// URL works for mirrors)")
}

func (s *sourceFlags) options(g *globals, tag string) source.Options {
	return source.Options{
		Tag:      tag,
		Source:   s.source,
		Repo:     s.repo,
		CacheDir: g.cacheDir,
		Progress: g.progress(),
		Logger:   g.log,
	}
}
