// Package beamtest helps the Beam tests: it builds the urlnorm command
// they compare with, and runs them in a network namespace of their own,
// since Beam's prism runner listens on every interface.
package beamtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

const (
	envNetns = "URLBEAM_TEST_NETNS" // set in the re-executed test
	envCLI   = "URLBEAM_TEST_CLI"   // the urlnorm binary built for the run
)

// Root is the repository's root directory.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// Main builds the urlnorm command, then runs the tests (run, e.g.
// ptest.MainRetWithDefault) and exits with their status.
//
// Beam's prism runner (2.77.0) binds its job, artifact, control and data
// services to ":port" — every interface — and has no option to bind
// 127.0.0.1. So, when it can (root, with unshare and ip), Main re-runs the
// test binary in a new network namespace whose only interface is loopback:
// the runner's ports are then reachable from this machine's loopback only.
// Otherwise the tests run as they are, and say so.
//
// The run gets a temporary directory of its own as TMPDIR, removed at the
// end: the Beam SDK's loopback worker creates an empty file there per
// pipeline ("beamloopbackworker-*", runnerlib.Execute) and never removes
// it, which left hundreds in the machine's /tmp.
func Main(m *testing.M, run func(*testing.M) int) {
	if os.Getenv(envNetns) == "" {
		tmp, err := os.MkdirTemp("", "urlbeam-tmp-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "beamtest:", err)
			os.Exit(2)
		}
		os.Setenv("TMPDIR", tmp)
		code := outer(m, run)
		os.RemoveAll(tmp)
		os.Exit(code)
	}
	os.Exit(run(m))
}

// outer is Main in the process go test started: it builds the CLI, then
// runs the tests in a private network namespace or, failing that, here.
func outer(m *testing.M, run func(*testing.M) int) int {
	cli, dir, err := buildCLI()
	if err != nil {
		fmt.Fprintln(os.Stderr, "beamtest: building urlnorm:", err)
		return 2
	}
	defer os.RemoveAll(dir)
	if code, ran := inNetns(cli); ran {
		return code
	}
	fmt.Fprintln(os.Stderr, "beamtest: no private network namespace (unshare needs root): prism listens on all interfaces during the tests")
	os.Setenv(envCLI, cli)
	return run(m)
}

// Corpus is the repository's test corpus of URL files, in order.
func Corpus() []string {
	dir := filepath.Join(Root(), "testdata", "urls")
	return []string{filepath.Join(dir, "isaacs_files.txt"), filepath.Join(dir, "kasztp.txt"), filepath.Join(dir, "sample.csv")}
}

// CLI is the urlnorm binary that Main built.
func CLI() string { return os.Getenv(envCLI) }

func buildCLI() (bin, dir string, err error) {
	dir, err = os.MkdirTemp("", "urlbeam-cli-")
	if err != nil {
		return "", "", err
	}
	bin = filepath.Join(dir, "urlnorm")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/urlnorm")
	cmd.Dir = Root()
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", "", fmt.Errorf("%v\n%s", err, out)
	}
	return bin, dir, nil
}

// inNetns re-runs the test binary in a new network namespace with
// loopback up; ran is false when that is not possible here.
func inNetns(cli string) (code int, ran bool) {
	if os.Geteuid() != 0 {
		return 0, false
	}
	if _, err := exec.LookPath("ip"); err != nil {
		return 0, false
	}
	if err := exec.Command("unshare", "--net", "true").Run(); err != nil {
		return 0, false
	}
	self, err := os.Executable()
	if err != nil {
		return 0, false
	}
	args := append([]string{"--net", "--", "sh", "-c", `ip link set lo up && exec "$@"`, "sh", self}, os.Args[1:]...)
	cmd := exec.Command("unshare", args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// The go command must not reach the network from inside (GOPROXY=off);
	// the tests build only what is already in the module cache.
	cmd.Env = append(os.Environ(), envNetns+"=1", envCLI+"="+cli, "GOPROXY=off")
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), true
		}
		fmt.Fprintln(os.Stderr, "beamtest:", err)
		return 2, true
	}
	return 0, true
}
