// The main module of a golangci-lint v2 with queuecheck's checks compiled in,
// built from the Go module proxy alone (no clone of golangci-lint's repository).
// The replace points at this checkout; elsewhere, point it at a clone of
// queuecheck or drop it and require a released version. Then:
//
//	go mod tidy && go build -o golangci-lint .
//
// plugin/internal/gclbuild builds this for the tests and .ci/run, with the
// replace rewritten to the checkout's absolute path.
module queuecheck.example/golangci-lint-custom

go 1.26.0

require (
	github.com/golangci/golangci-lint/v2 v2.15.0
	github.com/queuecheck/queuecheck v0.0.0
)

replace github.com/queuecheck/queuecheck => ../../..
