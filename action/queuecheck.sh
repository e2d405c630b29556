#!/usr/bin/env bash
# The script of queuecheck's GitHub Action (action.yml at the repository's
# root). Two subcommands, each configured by environment variables that
# action.yml sets from its inputs, and tested locally by
# cmd/queuecheck/action_test.go:
#
#   queuecheck.sh install   builds queuecheck at the action's version
#                           (INPUT_VERSION empty: from the action's own
#                           source, GITHUB_ACTION_PATH; else go install
#                           ...@INPUT_VERSION) into RUNNER_TEMP and writes
#                           bin=PATH to GITHUB_OUTPUT.
#   queuecheck.sh run       runs QUEUECHECK on INPUT_PATTERNS in
#                           INPUT_WORKING_DIRECTORY: annotations on the
#                           diff (-format=github) and, when INPUT_SARIF_FILE
#                           is set, SARIF for code scanning; both narrowed
#                           to new findings by INPUT_BASELINE,
#                           INPUT_NEW_FROM_REV or INPUT_NEW_FROM_MERGE_BASE
#                           (on a pull request with none of them: the merge
#                           base with the base branch). Exits as queuecheck
#                           does: 0 clean, 1 new findings, 2 could not look.
set -euo pipefail

die() { echo "::error title=queuecheck action::$*" >&2; exit 2; }

output() {
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    echo "$1=$2" >> "$GITHUB_OUTPUT"
  fi
}

install() {
  local dir="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/queuecheck-action"
  mkdir -p "$dir"
  local bin="$dir/queuecheck"
  if [ -n "${INPUT_VERSION:-}" ]; then
    GOBIN="$dir" go install "github.com/queuecheck/queuecheck/cmd/queuecheck@${INPUT_VERSION}"
  else
    [ -n "${GITHUB_ACTION_PATH:-}" ] || die "GITHUB_ACTION_PATH is not set: run this as the action, or set INPUT_VERSION"
    # The action's own checkout is the version the workflow pinned
    # (uses: queuecheck/queuecheck@REF).
    go build -C "$GITHUB_ACTION_PATH" -trimpath -o "$bin" ./cmd/queuecheck
  fi
  "$bin" -V
  output bin "$bin"
}

# gate prints, one per line, the flags that narrow the report to new findings.
gate() {
  local set=0
  [ -n "${INPUT_BASELINE:-}" ] && set=$((set + 1))
  [ -n "${INPUT_NEW_FROM_REV:-}" ] && set=$((set + 1))
  [ -n "${INPUT_NEW_FROM_MERGE_BASE:-}" ] && set=$((set + 1))
  if [ "$set" -gt 1 ]; then
    die "give at most one of baseline, new-from-rev and new-from-merge-base"
  fi
  if [ -n "${INPUT_BASELINE:-}" ]; then
    echo "-baseline=${INPUT_BASELINE}"
  elif [ -n "${INPUT_NEW_FROM_REV:-}" ]; then
    echo "-new-from-rev=${INPUT_NEW_FROM_REV}"
  elif [ -n "${INPUT_NEW_FROM_MERGE_BASE:-}" ]; then
    echo "-new-from-merge-base=${INPUT_NEW_FROM_MERGE_BASE}"
  elif [ "${INPUT_ONLY_NEW:-true}" = true ] && [ "${GITHUB_EVENT_NAME:-}" = pull_request ] && [ -n "${GITHUB_BASE_REF:-}" ]; then
    # The base branch may not be fetched (actions/checkout fetches one
    # commit by default): fetch it, with enough history for a merge base.
    if ! git rev-parse --verify --quiet "refs/remotes/origin/${GITHUB_BASE_REF}" > /dev/null; then
      git fetch --no-tags --quiet origin "+refs/heads/${GITHUB_BASE_REF}:refs/remotes/origin/${GITHUB_BASE_REF}" >&2 || die "could not fetch the base branch ${GITHUB_BASE_REF}"
    fi
    if ! git merge-base "origin/${GITHUB_BASE_REF}" HEAD > /dev/null 2>&1; then
      git fetch --no-tags --quiet --unshallow origin >&2 || die "no merge base with origin/${GITHUB_BASE_REF}; check out with fetch-depth: 0"
    fi
    echo "-new-from-merge-base=origin/${GITHUB_BASE_REF}"
  fi
}

run() {
  local qc="${QUEUECHECK:-}"
  [ -n "$qc" ] || die "QUEUECHECK (the binary) is not set"
  cd "${INPUT_WORKING_DIRECTORY:-.}"

  local -a flags=() patterns=() extra=()
  local gates
  gates=$(gate) || exit 2
  if [ -n "$gates" ]; then
    mapfile -t flags <<< "$gates"
  fi
  if [ -n "${INPUT_CONFIG:-}" ]; then
    flags+=("-config=${INPUT_CONFIG}")
  fi
  # Patterns and extra flags are whitespace-separated, as on a command line.
  read -r -a patterns <<< "${INPUT_PATTERNS:-./...}"
  if [ -n "${INPUT_FLAGS:-}" ]; then
    read -r -a extra <<< "${INPUT_FLAGS}"
  fi
  [ "${#patterns[@]}" -gt 0 ] || patterns=(./...)
  echo "queuecheck ${flags[*]} ${extra[*]} ${patterns[*]}" >&2

  local status=0
  "$qc" -format=github "${flags[@]}" "${extra[@]}" "${patterns[@]}" || status=$?

  if [ -n "${INPUT_SARIF_FILE:-}" ] && [ "$status" -le 1 ]; then
    local sarif_status=0
    "$qc" -format=sarif "${flags[@]}" "${extra[@]}" "${patterns[@]}" > "${INPUT_SARIF_FILE}" || sarif_status=$?
    if [ "$sarif_status" -gt 1 ]; then
      die "writing SARIF failed (status $sarif_status)"
    fi
    output sarif-file "$(cd "$(dirname "${INPUT_SARIF_FILE}")" && pwd)/$(basename "${INPUT_SARIF_FILE}")"
  fi
  output status "$status"
  case $status in
    0) echo "queuecheck: no new findings" >&2 ;;
    1) echo "queuecheck: new findings (annotated above)" >&2 ;;
    *) echo "queuecheck: could not analyze the code (status $status)" >&2 ;;
  esac
  if [ "$status" -eq 1 ] && [ "${INPUT_FAIL_ON_FINDINGS:-true}" != true ]; then
    return 0
  fi
  return "$status"
}

case "${1:-}" in
  install) install ;;
  run) run ;;
  *) echo "usage: queuecheck.sh install|run" >&2; exit 2 ;;
esac
