package udf

import "github.com/urlnorm/urlnorm/normalize"

// An Option configures what a host registers with the functions; package
// duckdb's and package sqlite's Open and Register take them. Profiles are
// process-wide (normalize's registry), so a profile an option loads is
// usable by name on every connection and database of the process, as with
// urlnorm_load_profile.
type Option func() error

// WithProfiles makes compiled profiles usable by their names
// (normalize.Define: the same profile again is a no-op, another one under
// a taken name an error).
func WithProfiles(ns ...*normalize.Normalizer) Option {
	return func() error {
		for _, n := range ns {
			if _, err := normalize.Define(n); err != nil {
				return err
			}
		}
		return nil
	}
}

// WithProfileFile loads a profile or configuration file, by path or as
// JSON/YAML text, under name, as urlnorm_load_profile does (LoadProfile).
func WithProfileFile(name, pathOrText string) Option {
	return func() error {
		_, err := LoadProfile(name, pathOrText)
		return err
	}
}

// ApplyOptions runs opts in order and returns the first error.
func ApplyOptions(opts []Option) error {
	for _, o := range opts {
		if err := o(); err != nil {
			return err
		}
	}
	return nil
}
