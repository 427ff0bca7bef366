// Package machine describes the computer a benchmark ran on and how busy
// other processes kept it meanwhile (Linux /proc; elsewhere the fields
// stay empty).
package machine

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Info is the machine description recorded next to every result.
type Info struct {
	CPU       string `json:"cpu"`
	Cores     int    `json:"cores"`
	MemoryGiB int    `json:"memory_gib"`
	Kernel    string `json:"kernel"`
	Go        string `json:"go"`
	OSArch    string `json:"os_arch"`
}

// Describe reads the CPU model, core count and RAM.
func Describe() Info {
	return Info{
		CPU:       procField("/proc/cpuinfo", "model name"),
		Cores:     runtime.NumCPU(),
		MemoryGiB: memGiB(),
		Kernel:    strings.TrimSpace(readFile("/proc/sys/kernel/osrelease")),
		Go:        runtime.Version(),
		OSArch:    runtime.GOOS + "/" + runtime.GOARCH,
	}
}

func readFile(p string) string {
	b, _ := os.ReadFile(p)
	return string(b)
}

// procField returns the value of the first "key: value" line of a /proc
// file.
func procField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func memGiB() int {
	f := strings.Fields(procField("/proc/meminfo", "MemTotal")) // "24587000 kB"
	if len(f) == 0 {
		return 0
	}
	kb, _ := strconv.Atoi(f[0])
	return (kb + 1<<19) >> 20
}

// Modules maps each module the running binary was built with to its
// version (the peers' versions go into the results).
func Modules() map[string]string {
	v := map[string]string{}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			v[d.Path] = d.Version
		}
	}
	return v
}

// LoadAvg returns the 1-, 5- and 15-minute load averages as printed by
// /proc/loadavg.
func LoadAvg() string {
	f := strings.Fields(readFile("/proc/loadavg"))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// CPUTime is this process's user+system CPU time (all threads, GC
// included) from getrusage.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Snapshot is a point in time for measuring what other processes did.
type Snapshot struct {
	at      time.Time
	busy    float64 // seconds of CPU time used by the whole machine
	steal   float64 // seconds the hypervisor gave to other guests
	own     time.Duration
	loadavg string
}

// Take records the machine's busy CPU time and this process's own.
func Take() Snapshot {
	busy, steal := machineBusy()
	return Snapshot{at: time.Now(), busy: busy, steal: steal, own: CPUTime(), loadavg: LoadAvg()}
}

// Load summarises the interval between two snapshots.
type Load struct {
	Seconds float64 `json:"seconds"`
	// OthersCPUSeconds is the CPU time other processes used meanwhile
	// (machine busy time minus this process's), and OthersCores the same
	// as an average number of busy cores: 0 on a quiet machine.
	OthersCPUSeconds float64 `json:"others_cpu_seconds"`
	OthersCores      float64 `json:"others_cores"`
	// StealSeconds is CPU time the hypervisor gave to other guests (a VM's
	// invisible neighbours).
	StealSeconds float64 `json:"steal_seconds"`
	LoadAvgStart string  `json:"loadavg_start"`
	LoadAvgEnd   string  `json:"loadavg_end"`
}

// Since measures the load from s to now.
func Since(s Snapshot) Load {
	e := Take()
	secs := e.at.Sub(s.at).Seconds()
	others := (e.busy - s.busy) - (e.own - s.own).Seconds()
	if others < 0 { // jiffy rounding on a quiet machine
		others = 0
	}
	l := Load{Seconds: secs, OthersCPUSeconds: others, StealSeconds: e.steal - s.steal,
		LoadAvgStart: s.loadavg, LoadAvgEnd: e.loadavg}
	if secs > 0 {
		l.OthersCores = others / secs
	}
	return l
}

// String renders the load for a report line.
func (l Load) String() string {
	return fmt.Sprintf("other processes used %.1f CPU-s in %.0f s (%.2f cores on average), steal %.1f s; loadavg %s at start, %s at end",
		l.OthersCPUSeconds, l.Seconds, l.OthersCores, l.StealSeconds, l.LoadAvgStart, l.LoadAvgEnd)
}

// machineBusy returns the non-idle CPU time of all cores (user, nice,
// system, irq, softirq) and the steal time from /proc/stat, in seconds
// (USER_HZ is 100 on Linux).
func machineBusy() (busy, steal float64) {
	line := strings.SplitN(readFile("/proc/stat"), "\n", 2)[0] // "cpu  user nice system idle iowait irq softirq steal ..."
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0, 0
	}
	jiffies := func(i int) float64 {
		n, _ := strconv.ParseFloat(f[i], 64)
		return n / 100
	}
	return jiffies(1) + jiffies(2) + jiffies(3) + jiffies(6) + jiffies(7), jiffies(8)
}
