#!/usr/bin/env bash
# quiet.sh: run a command once the machine is quiet.
#
#   benchmarks/quiet.sh [-idle PCT] [-window SECS] [-timeout SECS] [-nice-idle] -- CMD [ARGS...]
#
# Waits until the whole machine has been at least PCT % idle (default 90)
# over a WINDOW-second interval (default 10), measured from /proc/stat, or
# until TIMEOUT seconds have passed (default 1800), then runs CMD. Either
# way it prints what it saw on stderr, so the load goes into the record
# next to the figures (the harnesses also measure the load during the run
# themselves). Exits with CMD's status.
#
# -nice-idle counts CPU time of niced processes (nice > 0: fuzzers, builds
# run with nice) as idle: the scheduler gives an un-niced benchmark most of
# a core against them (weight 1024 against 110 at nice 10, 15 at nice 19),
# though they still share caches. Use it when the machine never gets idle,
# and say so next to the figures.
set -euo pipefail

idle=90 window=10 timeout=1800 nice_idle=0
while (($#)); do
	case "$1" in
	-idle) idle=$2; shift 2 ;;
	-window) window=$2; shift 2 ;;
	-timeout) timeout=$2; shift 2 ;;
	-nice-idle) nice_idle=1; shift ;;
	--) shift; break ;;
	*) break ;;
	esac
done
if (($# == 0)); then
	echo "usage: quiet.sh [-idle PCT] [-window SECS] [-timeout SECS] [-nice-idle] -- CMD [ARGS...]" >&2
	exit 2
fi

# cpu_times prints "idle total" jiffies summed over all cores.
cpu_times() {
	read -r _ user nice system idle iowait irq softirq steal _ </proc/stat
	echo "$((idle + iowait + nice * nice_idle)) $((user + nice + system + idle + iowait + irq + softirq + steal))"
}

start=$SECONDS
while :; do
	read -r i0 t0 < <(cpu_times)
	sleep "$window"
	read -r i1 t1 < <(cpu_times)
	pct=$(((i1 - i0) * 100 / (t1 - t0 > 0 ? t1 - t0 : 1)))
	waited=$((SECONDS - start))
	if ((pct >= idle)); then
		echo "quiet.sh: machine ${pct}% idle$( ((nice_idle)) && echo ' (niced time counted idle)') over ${window}s after waiting ${waited}s (loadavg $(cut -d' ' -f1-3 /proc/loadavg)); running: $*" >&2
		break
	fi
	if ((waited >= timeout)); then
		echo "quiet.sh: TIMED OUT after ${waited}s: machine only ${pct}% idle (loadavg $(cut -d' ' -f1-3 /proc/loadavg)); running anyway: $*" >&2
		break
	fi
	echo "quiet.sh: ${pct}% idle$( ((nice_idle)) && echo ' (niced time counted idle)') (want ${idle}%), waited ${waited}s of ${timeout}s; loadavg $(cut -d' ' -f1-3 /proc/loadavg)" >&2
done
exec "$@"
