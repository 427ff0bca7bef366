// Command urlnorm canonicalizes URLs from the command line: normalize,
// hash and dedup files, run SQL with the urlnorm functions, list and
// compare profiles. Run "urlnorm help" for the subcommands.
package main

import (
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"
)

// command is one subcommand. Each lives in its own file and registers
// itself in init().
type command struct {
	name    string
	summary string                            // one line for "urlnorm help"
	run     func(args []string, env *env) int // returns the exit status
}

// env is what a command may touch, so tests can run commands in-process.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("duplicate command " + c.name)
	}
	commands[c.name] = c
}

// Exit statuses (documented in "urlnorm help").
const (
	exitOK    = 0
	exitData  = 1 // some input was invalid (with --strict), diff --exit-code found changes, or a query failed
	exitUsage = 2 // bad flags or arguments
	exitIO    = 3 // a file could not be read or written
)

func main() {
	os.Exit(run(os.Args[1:], &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}))
}

func run(args []string, e *env) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				return c.run([]string{"--help"}, e)
			}
		}
		usage(e.stdout)
		return exitOK
	}
	if args[0] == "--version" || args[0] == "-version" {
		return commands["version"].run(args[1:], e)
	}
	c, ok := commands[args[0]]
	if !ok {
		what, hint := "command", suggest(args[0], slices.Sorted(maps.Keys(commands)), func(s string) string { return s })
		if strings.HasPrefix(args[0], "-") { // the only global flags are --help and --version
			what, hint = "flag", suggest(strings.TrimLeft(args[0], "-"), []string{"help", "version"}, dashed)
		}
		fmt.Fprintf(e.stderr, "urlnorm: unknown %s %s%s; run 'urlnorm help' for the list\n", what, args[0], hint)
		return exitUsage
	}
	return c.run(args[1:], e)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "urlnorm — URL canonicalization for files, pipelines and SQL")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: urlnorm <command> [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'urlnorm <command> --help' for a command's flags and examples,")
	fmt.Fprintln(w, "'urlnorm --version' for the release and profile versions.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Exit status: 0 success; 1 invalid input (with --strict), a change found by")
	fmt.Fprintln(w, "'diff --exit-code', or a failed query; 2 usage error (bad flag, unknown")
	fmt.Fprintln(w, "profile or column); 3 a file could not be read completely or written.")
}
