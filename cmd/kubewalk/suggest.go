package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// onlyValidArgs is cobra.OnlyValidArgs with cobra's "Did you mean" for a
// misspelt argument ("list event" → events), as cobra gives it for a
// misspelt command.
func onlyValidArgs(cmd *cobra.Command, args []string) error {
	for _, a := range args {
		valid := false
		for _, v := range cmd.ValidArgs {
			if name, _, _ := strings.Cut(v, "\t"); name == a {
				valid = true
			}
		}
		if !valid {
			return fmt.Errorf("invalid argument %q for %q%s", a, cmd.CommandPath(), didYouMean(argSuggestions(cmd, a)))
		}
	}
	return nil
}

// argSuggestions are the valid arguments within the command's suggestion
// distance of a, or that begin with it, as cobra's SuggestionsFor finds
// commands.
func argSuggestions(cmd *cobra.Command, a string) []string {
	dist := cmd.SuggestionsMinimumDistance
	if dist <= 0 {
		dist = 2
	}
	var out []string
	for _, v := range cmd.ValidArgs {
		name, _, _ := strings.Cut(v, "\t")
		if editDistance(strings.ToLower(a), name) <= dist || strings.HasPrefix(name, strings.ToLower(a)) {
			out = append(out, name)
		}
	}
	return out
}

// didYouMean is cobra's suggestion paragraph, "" for none.
func didYouMean(names []string) string {
	if len(names) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\nDid you mean this?\n")
	for _, n := range names {
		fmt.Fprintf(&b, "\t%s\n", n)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// editDistance is the Levenshtein distance of two strings, by bytes (the
// names compared are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
