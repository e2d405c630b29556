// Command golangci-lint is golangci-lint v2 with queuecheck's checks compiled
// in as module plugins, one linter per check. It is upstream's
// cmd/golangci-lint/main.go plus one blank import.
package main

import (
	"cmp"
	"fmt"
	"os"
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	// Registers every queuecheck check as a golangci-lint module plugin.
	_ "github.com/queuecheck/queuecheck/plugin"
)

func main() {
	info := createBuildInfo()

	if err := commands.Execute(info); err != nil {
		_, _ = fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}

// createBuildInfo is upstream's, without the version goreleaser stamps in.
// The version comes from debug.ReadBuildInfo and reads "(devel)" for this
// module, which makes golangci-lint salt its cache with a hash of the binary:
// a rebuilt plugin never gets results cached by the previous one. (A fixed
// version string here would.)
func createBuildInfo() commands.BuildInfo {
	info := commands.BuildInfo{
		Commit:    "?",
		Version:   "unknown",
		GoVersion: "unknown",
	}

	buildInfo, available := debug.ReadBuildInfo()
	if !available {
		return info
	}

	info.GoVersion = buildInfo.GoVersion
	info.Version = buildInfo.Main.Version

	matched, _ := regexp.MatchString(`v\d+\.\d+\.\d+`, buildInfo.Main.Version)
	if matched {
		info.Version = strings.TrimPrefix(buildInfo.Main.Version, "v")
	}

	var revision, modified string
	for _, setting := range buildInfo.Settings {
		switch setting.Key {
		case "vcs.time":
			info.Date = setting.Value
		case "vcs.revision":
			revision = setting.Value
		case "vcs.modified":
			modified = setting.Value
		}
	}
	info.Date = cmp.Or(info.Date, "(unknown)")

	// Say which golangci-lint and which queuecheck went in.
	versions := map[string]string{}
	for _, dep := range buildInfo.Deps {
		v := dep.Version
		if dep.Replace != nil {
			v = cmp.Or(dep.Replace.Version, "(local)")
		}
		versions[dep.Path] = v
	}

	info.Commit = fmt.Sprintf("(%s, modified: %s, golangci-lint %s, queuecheck %s)",
		cmp.Or(revision, "unknown"), cmp.Or(modified, "?"),
		cmp.Or(versions["github.com/golangci/golangci-lint/v2"], "?"),
		cmp.Or(versions["github.com/queuecheck/queuecheck"], "?"))

	return info
}
