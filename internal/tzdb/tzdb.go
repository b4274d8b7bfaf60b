// Package tzdb loads time zones from an embedded copy of the IANA Time
// Zone Database (Go's lib/time/zoneinfo.zip), never from the host: no
// file, no ZONEINFO variable. It backs time.LoadLocation in scripts, so a
// script gets the same zones on every host and in both runtimes, and
// cannot probe the host's files through a zone name.
package tzdb

import (
	"archive/zip"
	"bytes"
	_ "embed"
	"errors"
	"io"
	"sort"
	"strings"
	"sync"
	"time"
)

//go:embed zoneinfo.zip
var zipData []byte

// index maps each zone name of the archive to its file.
var index = sync.OnceValues(func() (map[string]*zip.File, error) {
	r, err := zip.NewReader(bytes.NewReader(zipData), int64(len(zipData)))
	if err != nil {
		return nil, err
	}
	m := make(map[string]*zip.File, len(r.File))
	for _, f := range r.File {
		if !strings.HasSuffix(f.Name, "/") {
			m[f.Name] = f
		}
	}
	return m, nil
})

// errLocation is time.LoadLocation's error for a name no zone can have.
var errLocation = errors.New("time: invalid location name")

// LoadLocation is time.LoadLocation over the embedded database: "" and
// "UTC" give time.UTC, "Local" gives time.Local, any other name a new
// *time.Location read from the archive, or the error time.LoadLocation
// gives when it finds no such zone.
func LoadLocation(name string) (*time.Location, error) {
	switch name {
	case "", "UTC":
		return time.UTC, nil
	case "Local":
		return time.Local, nil
	}
	if strings.Contains(name, "..") || name[0] == '/' || name[0] == '\\' {
		return nil, errLocation
	}
	idx, err := index()
	if err != nil {
		return nil, err
	}
	f, ok := idx[name]
	if !ok {
		return nil, errors.New("unknown time zone " + name)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, 1<<20))
	if err != nil {
		return nil, err
	}
	return time.LoadLocationFromTZData(name, data)
}

// Names returns the sorted zone names of the embedded database.
func Names() []string {
	idx, err := index()
	if err != nil {
		return nil
	}
	out := make([]string, 0, len(idx))
	for n := range idx {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
