//go:build !linux

package progress

import "os"

// isTerminal: the bar is drawn on Linux terminals only.
func isTerminal(f *os.File) bool { return false }

func termWidth(f *os.File) int { return 80 }
