// Package version holds urlnorm's release version: one semver string that
// the command line, both loadable extensions, the SQL function
// urlnorm_version(), and the Python and npm packages all report.
//
// Profile versions are separate: each profile carries its own (see
// normalize.Normalizer.Version); a release lists them.
package version

// Version is the release version (semver, without a leading "v").
const Version = "0.1.0"
