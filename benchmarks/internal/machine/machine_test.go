package machine

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestDescribe(t *testing.T) {
	i := Describe()
	if i.Cores != runtime.NumCPU() || i.Go != runtime.Version() {
		t.Fatalf("Describe = %+v", i)
	}
	if runtime.GOOS == "linux" && (i.CPU == "" || i.MemoryGiB == 0 || i.Kernel == "") {
		t.Fatalf("Describe on Linux lacks /proc facts: %+v", i)
	}
}

// Since counts this process's own CPU time out of "others".
func TestSinceExcludesOwnWork(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	s := Take()
	for end := time.Now().Add(300 * time.Millisecond); time.Now().Before(end); {
	}
	l := Since(s)
	if l.Seconds < 0.3 || l.OthersCPUSeconds < 0 || l.OthersCPUSeconds > float64(runtime.NumCPU())*l.Seconds {
		t.Fatalf("Since = %+v", l)
	}
	if CPUTime() <= 0 {
		t.Fatal("CPUTime = 0 after a busy loop")
	}
	if !strings.Contains(l.String(), "loadavg") {
		t.Fatalf("String = %q", l.String())
	}
}
