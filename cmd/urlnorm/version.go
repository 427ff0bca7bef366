package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/version"
)

func init() {
	register(&command{name: "version", summary: "the release version and each built-in profile's version", run: runVersion})
}

var versionHelp = help{
	synopsis: "version   (or: urlnorm --version)",
	about: `Prints urlnorm's release version (semver) on the first line, then each
built-in profile with its own version. A profile's version changes only
when its output does (with a changelog row); the release version changes
with every release.`,
	examples: `urlnorm version
urlnorm --version | head -n 1`,
	exit: `Exit status: 0 success; 2 usage error; 3 the output could not be written.`,
}

func runVersion(args []string, e *env) int {
	fs := newFlags("version", versionHelp)
	pos, code, ok := parseFlags(fs, args, e)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return usageError(e, "version", "takes no arguments")
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "urlnorm %s\n\nprofile\tversion\n", version.Version)
	for _, name := range normalize.Names() {
		fmt.Fprintf(tw, "%s\t%s\n", name, normalize.MustLookup(name).Version())
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintf(e.stderr, "urlnorm version: %v\n", err)
		return exitIO
	}
	return exitOK
}
