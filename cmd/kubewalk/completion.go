package main

import "github.com/spf13/cobra"

// completeFlags registers shell completion for the flags kubewalk's
// commands share (--lang, --source, --walkthroughs, --out) when c has them,
// plus fixed value lists (-o) given by flag name.
func completeFlags(c *cobra.Command, values map[string][]cobra.Completion) {
	fixed := func(vs ...cobra.Completion) cobra.CompletionFunc {
		return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return vs, cobra.ShellCompDirectiveNoFileComp
		}
	}
	reg := func(name string, fn cobra.CompletionFunc) {
		if c.Flags().Lookup(name) != nil {
			_ = c.RegisterFlagCompletionFunc(name, fn)
		}
	}
	reg("lang", fixed("en\tEnglish", "ko\tKorean"))
	// --source takes a keyword or the path of a checkout: offer the
	// keywords and let the shell complete directories after them.
	reg("source", func(_ *cobra.Command, _ []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var out []cobra.Completion
		for _, k := range []cobra.Completion{"auto", "git", "goproxy"} {
			if len(prefix) <= len(k) && k[:len(prefix)] == prefix {
				out = append(out, k)
			}
		}
		if len(out) > 0 {
			return out, cobra.ShellCompDirectiveNoFileComp
		}
		return nil, cobra.ShellCompDirectiveFilterDirs
	})
	dirs := func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveFilterDirs
	}
	reg("walkthroughs", dirs)
	reg("out", dirs)
	reg("tag", cobra.NoFileCompletions)
	for name, vs := range values {
		reg(name, fixed(vs...))
	}
}
