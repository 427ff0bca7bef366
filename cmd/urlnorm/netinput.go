package main

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/urlnorm/urlnorm/internal/cliio"
	"github.com/urlnorm/urlnorm/normalize"
)

// The inputs of the network commands (resolve, learn-hosts): URLs given
// as arguments, and files of one URL or domain per line read by the same
// reader as the file commands, so that a BOM, CRLF, .gz and a line too
// long to keep are handled alike (a too_long line is one failed input,
// never the end of the run).

// netInput is one URL or domain to look up.
type netInput struct {
	value string // without surrounding space; owned (not a batch's memory)
	pos   string // "links.txt:3" for a line, "" for an argument
	err   error  // a reading problem (too_long): the input is not looked up
}

// netInputs are the sources of a run, opened before any request.
type netInputs struct {
	srcs []netSource
}

type netSource struct {
	url    string        // an argument that is a URL
	reader *cliio.Reader // or a file ('-': stdin)
}

// openNetInputs opens the arguments: with urls set, an argument holding
// "://" is a URL; any other is a file (- is stdin); no argument means
// stdin. Every file is checked before the first is read, so a missing one
// fails before any request.
func openNetInputs(args []string, stdin io.Reader, urls bool, maxValue int) (*netInputs, error) {
	if len(args) == 0 {
		args = []string{"-"}
	}
	in := &netInputs{}
	for _, a := range args {
		if urls && strings.Contains(a, "://") {
			in.srcs = append(in.srcs, netSource{url: a})
			continue
		}
		r, err := cliio.Open([]string{a}, stdin, cliio.Options{Format: cliio.Text, MaxValue: maxValue})
		if err != nil {
			in.close()
			return nil, err
		}
		in.srcs = append(in.srcs, netSource{reader: r})
	}
	return in, nil
}

func (in *netInputs) close() {
	for _, s := range in.srcs {
		if s.reader != nil {
			s.reader.Close()
		}
	}
}

// each emits the inputs in order; blank lines and lines starting with #
// are skipped. It stops when emit returns false, and returns a reading
// error (a file that could not be read to its end).
func (in *netInputs) each(emit func(netInput) bool) error {
	defer in.close()
	for _, s := range in.srcs {
		if s.reader == nil {
			if !emit(netInput{value: strings.TrimSpace(s.url)}) {
				return nil
			}
			continue
		}
		more := true
		err := s.reader.Each(func(b *cliio.Batch) bool {
			defer b.Release()
			for i := range b.Len() {
				v := strings.TrimSpace(b.Value(i))
				if v == "" || v[0] == '#' {
					continue
				}
				if more = emit(netInput{value: strings.Clone(v), pos: b.Pos(i), err: ownErr(b.Err(i))}); !more {
					return false
				}
			}
			return true
		})
		if err != nil || !more {
			return err
		}
	}
	return nil
}

// ownErr copies the input of a reading error out of the batch's memory,
// which is reused once the batch is released.
func ownErr(err error) error {
	var ne *normalize.Error
	if !errors.As(err, &ne) {
		return err
	}
	c := *ne
	c.Input = strings.Clone(c.Input)
	return &c
}

// maxMessage bounds a message about one input on stderr.
const maxMessage = 1000

// safeText makes an error message fit for a terminal: control
// characters and invalid UTF-8 escaped as Go does in a quoted string
// (\x1b, \xff), and at most maxMessage bytes, so that an input can
// neither flood stderr nor drive the terminal.
func safeText(s string) string {
	clean := len(s) <= maxMessage
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsPrint(r) && r != ' ' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	i := 0
	for i < len(s) && b.Len() < maxMessage {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[i])>>4, 16) + strconv.FormatUint(uint64(s[i])&15, 16))
		case unicode.IsPrint(r) || r == ' ':
			b.WriteString(s[i : i+size])
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	if i < len(s) {
		b.WriteString("…(" + strconv.Itoa(len(s)) + " bytes)")
	}
	return b.String()
}
