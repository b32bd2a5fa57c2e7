package main

import (
	"fmt"
	"runtime/debug"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/source"
	"github.com/spf13/cobra"
)

// version is set with -ldflags "-X main.version=..." by release builds;
// otherwise the module version from the build info is used.
var version = ""

func newVersionCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print kubewalk's version",
		Example: `  kubewalk version`,
		RunE: func(cmd *cobra.Command, args []string) error {
			v := version
			if bi, ok := debug.ReadBuildInfo(); ok && v == "" {
				v = bi.Main.Version
			}
			if v == "" {
				v = "(devel)"
			}
			fmt.Fprintf(g.stdout, "kubewalk %s\ndefault tag: %s\nfacts schema: %d\n", v, source.DefaultTag, fact.SchemaVersion)
			return nil
		},
	}
}
