package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/version"
)

// TestFlagErrors (issue 17 item 7): every command reports a bad flag the
// same way: named as typed, the closest flag when one is close, the way
// to the help, exit status 2 and nothing on stdout.
func TestFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // the first line of stderr
	}{
		{[]string{"normalize", "--formt", "text"}, "urlnorm normalize: unknown flag --formt (did you mean --format?)"},
		{[]string{"normalize", "-formt", "text"}, "urlnorm normalize: unknown flag -formt (did you mean --format?)"},
		{[]string{"normalize", "--formt=text"}, "urlnorm normalize: unknown flag --formt (did you mean --format?)"},
		{[]string{"dedup", "--prof", "x"}, "urlnorm dedup: unknown flag --prof (did you mean --profile?)"},
		{[]string{"sql", "--formt", "csv", "SELECT 1"}, "urlnorm sql: unknown flag --formt (did you mean --format?)"},
		{[]string{"sql", "--nope", "SELECT 1"}, "urlnorm sql: unknown flag --nope"},
		{[]string{"resolve", "--allowlst", "a.txt", "https://a.es/"}, "urlnorm resolve: unknown flag --allowlst (did you mean --allowlist?)"},
		{[]string{"learn-hosts", "--jbos", "2"}, "urlnorm learn-hosts: unknown flag --jbos (did you mean --jobs?)"},
		{[]string{"profiles", "--strict"}, "urlnorm profiles: unknown flag --strict"},
		{[]string{"diff", "--form", "default"}, "urlnorm diff: unknown flag --form (did you mean --from?)"},
		{[]string{"version", "--json"}, "urlnorm version: unknown flag --json"},
		{[]string{"normalize", "--jobs", "x"}, `urlnorm normalize: invalid value "x" for --jobs N: parse error`},
		{[]string{"resolve", "--timeout", "soon"}, `urlnorm resolve: invalid value "soon" for --timeout DURATION: parse error`},
		{[]string{"normalize", "--format"}, "urlnorm normalize: --format needs a value"},
		{[]string{"normalise"}, "urlnorm: unknown command normalise (did you mean normalize?); run 'urlnorm help' for the list"},
		{[]string{"--verison"}, "urlnorm: unknown flag --verison (did you mean --version?); run 'urlnorm help' for the list"},
	} {
		r := urlnorm(t, "", c.args...)
		first, rest, _ := strings.Cut(r.stderr, "\n")
		if r.code != exitUsage || r.stdout != "" || first != c.want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, r.code, r.stdout, r.stderr, c.want)
		}
		if c.args[0] != "normalise" && c.args[0] != "--verison" && rest != "run 'urlnorm "+c.args[0]+" --help' for the flags and examples\n" {
			t.Errorf("%q: no way to the help: %q", c.args, rest)
		}
	}
}

// helpFlags returns the flags a --help text lists under "Flags:".
func helpFlags(h string) []string {
	_, list, _ := strings.Cut(h, "\nFlags:\n")
	list, _, _ = strings.Cut(list, "\n\n")
	var flags []string
	for _, l := range strings.Split(list, "\n") {
		if f, ok := strings.CutPrefix(l, "  -"); ok {
			flags = append(flags, "-"+strings.Fields(f)[0])
		}
	}
	return flags
}

// singleDash is a multi-letter flag written Go's way (-allowlist) instead
// of --allowlist.
var singleDash = regexp.MustCompile(`(^|[\s(\[,'"])-[a-z][a-z-]+\b`)

// TestHelpConvention (issue 17 item 7): every command's help has one
// layout, spells flags with two dashes, documents in its exit status only
// flags it has, and its examples run the command itself, with flags the
// command they run has.
func TestHelpConvention(t *testing.T) {
	helps := map[string]string{}
	flags := map[string][]string{}
	for name := range commands {
		r := mustRun(t, 0, "", name, "--help")
		helps[name], flags[name] = r.stdout, helpFlags(r.stdout)
		if r.stderr != "" {
			t.Errorf("%s --help wrote to stderr: %q", name, r.stderr)
		}
	}
	for name, h := range helps {
		for _, part := range []string{"Usage: urlnorm " + name, "\nExamples:\n", "\nExit status: 0 success"} {
			if !strings.Contains(h, part) {
				t.Errorf("%s --help lacks %q", name, part)
			}
		}
		if name != "version" && len(flags[name]) == 0 {
			t.Errorf("%s --help lists no flags", name)
		}
		if m := singleDash.FindString(h); m != "" {
			t.Errorf("%s --help spells a flag with one dash: %q", name, m)
		}
		_, exit, _ := strings.Cut(h, "\nExit status:")
		for _, f := range regexp.MustCompile(`--[a-z-]+`).FindAllString(exit, -1) {
			if !slices.Contains(flags[name], f) {
				t.Errorf("%s --help: the exit status names %s, which %s does not have", name, f, name)
			}
		}
		_, ex, _ := strings.Cut(h, "\nExamples:\n")
		ex, _, _ = strings.Cut(ex, "\n\n")
		self := false
		for _, line := range strings.Split(ex, "\n") {
			for _, run := range strings.Split(line, "urlnorm ")[1:] {
				words := strings.Fields(run)
				cmd := words[0]
				if cmd == "--version" {
					cmd = "version"
				}
				self = self || cmd == name
				if _, ok := commands[cmd]; !ok {
					t.Errorf("%s --help: example %q runs an unknown command", name, line)
					continue
				}
				for _, w := range words[1:] {
					if strings.ContainsAny(w[:1], "|;><#") {
						break
					}
					if f, _, _ := strings.Cut(w, "="); strings.HasPrefix(f, "-") && len(f) > 1 && !slices.Contains(flags[cmd], f) {
						t.Errorf("%s --help: example %q gives %s a flag it lacks: %s", name, line, cmd, f)
					}
				}
			}
		}
		if !self {
			t.Errorf("%s --help: no example runs urlnorm %s:\n%s", name, name, ex)
		}
	}
}

// TestVersion (issue 12 item 1): urlnorm version and --version print the
// release version, then every built-in profile with its version.
func TestVersion(t *testing.T) {
	r := mustRun(t, 0, "", "version")
	if r2 := mustRun(t, 0, "", "--version"); r2.stdout != r.stdout {
		t.Errorf("--version %q differs from version %q", r2.stdout, r.stdout)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if lines[0] != "urlnorm "+version.Version {
		t.Errorf("first line %q, want %q", lines[0], "urlnorm "+version.Version)
	}
	for _, name := range normalize.Names() {
		re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` +` + regexp.QuoteMeta(normalize.MustLookup(name).Version()) + `$`)
		if !re.MatchString(r.stdout) {
			t.Errorf("version does not list %s %s:\n%s", name, normalize.MustLookup(name).Version(), r.stdout)
		}
	}
	if h := mustRun(t, 0, "", "help").stdout; !strings.Contains(h, "  version ") || !strings.Contains(h, "--version") {
		t.Errorf("urlnorm help does not list version:\n%s", h)
	}
}
