//go:build linux

package normalize

import (
	"syscall"
	"unsafe"
)

// suffixWords returns n zeroed words for a suffix cache. Its tables are
// read at random, one line per lookup; on 4 KiB pages most lookups would
// also miss the TLB and walk the page tables (two nested walks in a
// virtual machine), which measured as much as the line itself (about
// 40 ns a lookup on the web corpus's hosts). So a cache of 2 MiB or more
// gets memory of its own, aligned to 2 MiB and marked for transparent
// huge pages (madvise MADV_HUGEPAGE; a kernel that declines leaves
// ordinary pages, and the cache works the same). It is never unmapped:
// the process's cache lives as long as the process. Smaller caches (the
// tests') are ordinary slices.
func suffixWords(n int) []uint64 {
	const huge = 2 << 20
	size := n * 8
	if size < huge {
		return make([]uint64, n)
	}
	mem, err := syscall.Mmap(-1, 0, size+huge, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]uint64, n)
	}
	off := (huge - int(uintptr(unsafe.Pointer(&mem[0]))%huge)) % huge
	mem = mem[off : off+size]
	_ = syscall.Madvise(mem, syscall.MADV_HUGEPAGE) // a hint: ordinary pages otherwise
	return unsafe.Slice((*uint64)(unsafe.Pointer(&mem[0])), n)
}
