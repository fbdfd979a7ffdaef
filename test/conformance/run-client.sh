#!/usr/bin/env bash
# Runs the client leg of the official MCP conformance suite against a client command.
#
#   test/conformance/run-client.sh <command> [args...]
#
# For every scenario the revision runs (CONFORMANCE_REVISION, default 2025-11-25), the CLI starts
# its own mock server and runs the command once, from the repository root, through `sh -c`, with
# the server URL appended as the last argument and MCP_CONFORMANCE_SCENARIO,
# MCP_CONFORMANCE_PROTOCOL_VERSION and (for some authorization scenarios) MCP_CONFORMANCE_CONTEXT
# in the environment. The command must exit by itself when done. The exit status is non-zero if
# a scored scenario failed without being listed in expected-failures.txt, or a listed one passes.
#
# The CLI's own requirement mode starts every scenario at once, which on a small or busy machine
# pushes clients past their timeout; here scenarios run one per CLI invocation, at most
# CONFORMANCE_JOBS (default 4) at a time, with the same revision, wire version and checks.
#
# The CLI splits the command on spaces and hands it to the shell, so pass a program and its
# arguments, none containing whitespace or shell syntax. The command is prefixed with `exec` so
# that the CLI's timeout kill reaches the client itself rather than the shell around it.
# Environment: CONFORMANCE_JOBS, CONFORMANCE_TIMEOUT_MS (per scenario, default 30000),
# CONFORMANCE_OUTPUT_DIR, CONFORMANCE_EXPECTED_FAILURES, CONFORMANCE_REVISION.
set -euo pipefail
# shellcheck source=test/conformance/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[[ $# -gt 0 ]] || die "usage: $0 <client command> [args...]"
for arg in "$@"; do
	[[ "$arg" != *[[:space:]]* ]] || die "argument contains whitespace, which the CLI cannot pass through: $arg"
done
require_tooling
prepare_run client

COMMAND="exec $*"
JOBS="${CONFORMANCE_JOBS:-4}"
mapfile -t SCENARIOS < <("$NODE22" "$HARNESS" scenarios client "$REVISION")
mkdir -p "$RESULTS_DIR/logs"
log "running ${#SCENARIOS[@]} client scenarios ($REVISION, $JOBS at a time) with: $* <server-url>"

done_count=0
report() {
	done_count=$((done_count + 1))
	printf '  finished %s (%d/%d)\n' "$FINISHED" "$done_count" "${#SCENARIOS[@]}"
}
for scenario in "${SCENARIOS[@]}"; do
	while ((${#RUNNING[@]} >= JOBS)); do
		wait_cli
		report
	done
	start_cli "$RESULTS_DIR/logs/${scenario//\//_}.log" "$scenario" client --command "$COMMAND" \
		--scenario "$scenario" --spec-version "$REVISION" --force --timeout "$TIMEOUT_MS" -o "$RESULTS_DIR"
done
while ((${#RUNNING[@]} > 0)); do
	wait_cli
	report
done

status=0
verdict client || status=$?
exit "$status"
