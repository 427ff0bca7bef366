package main

// One convention for every command's flags and help: flags are spelled
// --name (a one-letter flag -q), as "--name value" or "--name=value",
// before or after the arguments ("--" ends them); --help and -h print
// the command's help on stdout; a bad flag is named as typed, with the
// closest flag when one is close, and exits with status 2.

import (
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// flagLike is what parseFlags takes for a flag; any other argument,
// "-" included, is positional.
var flagLike = regexp.MustCompile(`^--?[A-Za-z][A-Za-z0-9_-]*$`)

// help is a command's --help text.
type help struct {
	synopsis string // after "urlnorm "
	about    string
	examples string // one example per line, comments start with #
	exit     string // the exit statuses of this command
}

// newFlags makes a command's flag set; parseFlags prints its help.
func newFlags(name string, h help) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // every message is written by parseFlags
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: urlnorm %s\n\n%s\n", h.synopsis, strings.TrimSpace(h.about))
		if hasFlags(fs) {
			fmt.Fprintf(w, "\nFlags:\n")
			printFlags(w, fs)
		}
		if h.examples != "" {
			fmt.Fprintf(w, "\nExamples:\n")
			for _, l := range strings.Split(strings.TrimSpace(h.examples), "\n") {
				fmt.Fprintf(w, "  %s\n", l)
			}
		}
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(h.exit))
	}
	return fs
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// dashed spells a flag name as the help does: -q, --format.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// printFlags is flag.PrintDefaults with dashed names.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		name := dashed(f.Name)
		if arg != "" {
			name += " " + strings.ToUpper(arg)
		}
		fmt.Fprintf(w, "  %s\n      %s", name, usage)
		if d := f.DefValue; d != "" && d != "false" && d != "0" && !strings.Contains(usage, "default") {
			fmt.Fprintf(w, " (default %s)", d)
		}
		fmt.Fprintln(w)
	})
}

// parseFlags sets the flags in args and returns the other arguments.
// ok false means: return code (the help was printed, or an error).
func parseFlags(fs *flag.FlagSet, args []string, e *env) (pos []string, code int, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(pos, args[i+1:]...), exitOK, true
		}
		typed, value, hasValue := strings.Cut(a, "=")
		if !flagLike.MatchString(typed) {
			pos = append(pos, a) // "-" (stdin), "-- a comment\nSELECT …"
			continue
		}
		name := strings.TrimPrefix(typed[1:], "-")
		f := fs.Lookup(name)
		switch {
		case f == nil && (name == "h" || name == "help"):
			fs.SetOutput(e.stdout)
			fs.Usage()
			return nil, exitOK, false
		case f == nil:
			return nil, usageError(e, fs.Name(), "unknown flag %s%s", typed, suggest(name, flagNames(fs), dashed)), false
		case isBool(f):
			if !hasValue {
				value = "true"
			}
		case !hasValue && i+1 == len(args):
			return nil, usageError(e, fs.Name(), "%s needs a value", dashed(name)), false
		case !hasValue:
			i++
			value = args[i]
		}
		if err := fs.Set(name, value); err != nil {
			arg, _ := flag.UnquoteUsage(f)
			return nil, usageError(e, fs.Name(), "invalid value %q for %s %s: %v", value, dashed(name), strings.ToUpper(arg), err), false
		}
	}
	return pos, exitOK, true
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

func flagNames(fs *flag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

// usageError reports a mistake in a command line (exit status 2), with
// the way to the command's help.
func usageError(e *env, cmd, format string, a ...any) int {
	fmt.Fprintf(e.stderr, "urlnorm %s: %s\nrun 'urlnorm %s --help' for the flags and examples\n", cmd, fmt.Sprintf(format, a...), cmd)
	return exitUsage
}

// suggest returns " (did you mean X?)" for the known name closest to a
// mistyped one, or "" when none is close: at most two edits away (one
// for short names), or the typed name starts it.
func suggest(typed string, known []string, spell func(string) string) string {
	best, bestDist := "", 0
	for _, k := range known {
		d := editDistance(typed, k)
		if d > 2 || d > len(typed)/2 {
			if len(typed) < 2 || !strings.HasPrefix(k, typed) {
				continue
			}
		}
		if best == "" || d < bestDist || d == bestDist && k < best {
			best, bestDist = k, d
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean " + spell(best) + "?)"
}

// editDistance counts the insertions, deletions, substitutions and swaps
// of two neighbours that turn a into b (optimal string alignment, in
// bytes: flag and command names are ASCII), so "--form" is closer to
// --from than to --format.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// flagSet reports whether the flag was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
