package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"go.yaml.in/yaml/v3"

	"github.com/urlnorm/urlnorm/internal/profileload"
	"github.com/urlnorm/urlnorm/normalize"
)

func init() {
	register(&command{name: "profiles", summary: "list the built-in profiles; 'profiles show P' prints one as data", run: runProfiles})
}

var profilesHelp = help{
	synopsis: "profiles [--json] | profiles show [--yaml] PROFILE|FILE",
	about: `Without arguments, lists the built-in profiles: name, version, hash and a
one-line description. --json prints the same as a JSON array.

"profiles show P" prints profile P as loadable data: JSON by default, YAML
with --yaml. Save it, edit it (and its version), and use it with
--profile FILE or --config FILE in any command, or compare it with the
original using 'urlnorm diff'. Given a file, it prints the complete
profile the file defines.`,
	examples: `urlnorm profiles
urlnorm profiles show rfc3986
urlnorm profiles show --yaml default > my-profile.yaml
urlnorm diff --from default --to my-profile.yaml urls.txt`,
	exit: `Exit status: 0 success; 2 usage error (bad flag or argument, unknown
profile, a profile file that does not load); 3 the output could not be
written.`,
}

func runProfiles(args []string, e *env) int {
	fs := newFlags("profiles", profilesHelp)
	asJSON := fs.Bool("json", false, "list as a JSON array")
	asYAML := fs.Bool("yaml", false, "profiles show: print YAML instead of JSON")
	pos, code, ok := parseFlags(fs, args, e)
	if !ok {
		return code
	}
	switch {
	case len(pos) == 0:
		if err := listProfiles(e.stdout, *asJSON); err != nil {
			fmt.Fprintf(e.stderr, "urlnorm profiles: %v\n", err)
			return exitIO
		}
		return exitOK
	case pos[0] == "show" && len(pos) == 2:
		return showProfile(e, pos[1], *asYAML)
	}
	return usageError(e, "profiles", "want no argument, or 'show PROFILE'")
}

// profileInfo is a line of the list.
type profileInfo struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	Hash        string `json:"hash"`
	Description string `json:"description"`
	Source      string `json:"source,omitempty"`
}

func listProfiles(w io.Writer, asJSON bool) error {
	var list []profileInfo
	for _, name := range normalize.Names() {
		n, err := normalize.Lookup(name)
		if err != nil {
			return err
		}
		p := n.Profile()
		list = append(list, profileInfo{p.Name, p.Version, p.Hash, p.Description, p.Source})
	}
	if asJSON {
		b, _ := json.MarshalIndent(list, "", "  ")
		_, err := w.Write(append(b, '\n'))
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tVERSION\tHASH\tDESCRIPTION")
	for _, p := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.Name, p.Version, p.Hash, p.Description)
	}
	return tw.Flush()
}

func showProfile(e *env, arg string, asYAML bool) int {
	n, err := profileload.Load(arg)
	if err != nil {
		fmt.Fprintf(e.stderr, "urlnorm profiles: %v\n", err)
		return exitUsage
	}
	out := n.Profile().JSON()
	if asYAML {
		if out, err = jsonToYAML(out); err != nil {
			fmt.Fprintf(e.stderr, "urlnorm profiles: %v\n", err)
			return exitIO
		}
	}
	if _, err := e.stdout.Write(out); err != nil {
		fmt.Fprintf(e.stderr, "urlnorm profiles: %v\n", err)
		return exitIO
	}
	return exitOK
}

// jsonToYAML re-encodes a JSON document as block-style YAML, keeping the
// key order (JSON is YAML, so the YAML parser reads it into nodes).
func jsonToYAML(js []byte) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(js, &doc); err != nil {
		return nil, err
	}
	blockStyle(&doc)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), enc.Close()
}

// blockStyle drops the flow and quoting styles the JSON syntax gave the
// nodes; the encoder still quotes strings that would read as other types.
func blockStyle(n *yaml.Node) {
	n.Style = 0
	for _, c := range n.Content {
		blockStyle(c)
	}
}
