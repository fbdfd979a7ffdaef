#!/usr/bin/env bash
# Runs the server leg of the official MCP conformance suite against a server command.
#
#   test/conformance/run-server.sh <command> [args...]
#
# The command is started in its own process group with PORT=<free port> and HOST=127.0.0.1 in
# its environment; the literal text {port} in any argument is replaced by the same port. It must
# serve Streamable HTTP at http://127.0.0.1:<port>/mcp. Once the port accepts connections, the
# scenarios required by the revision (CONFORMANCE_REVISION, default 2025-11-25) run against it,
# the server is stopped, and the exit status is non-zero if a scored scenario failed without
# being listed in expected-failures.txt, a listed one now passes, or the server died.
#
# Environment: CONFORMANCE_START_TIMEOUT (seconds to wait for the port, default 30),
# CONFORMANCE_TIMEOUT_MS (per scenario, default 30000), CONFORMANCE_OUTPUT_DIR,
# CONFORMANCE_EXPECTED_FAILURES, CONFORMANCE_REVISION.
set -euo pipefail
# shellcheck source=test/conformance/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[[ $# -gt 0 ]] || die "usage: $0 <server command> [args...]"
require_tooling
prepare_run server

PORT="$("$NODE22" -e '
  const server = require("node:net").createServer();
  server.listen(0, "127.0.0.1", () => { console.log(server.address().port); server.close(); });
')"
URL="http://127.0.0.1:$PORT/mcp"
SERVER_LOG="$RESULTS_DIR/server.log"

args=()
for arg in "$@"; do
	args+=("${arg//\{port\}/$PORT}")
done

log "starting server on port $PORT: ${args[*]}"
(cd "$REPO_ROOT" && PORT="$PORT" HOST=127.0.0.1 exec setsid "${args[@]}") >"$SERVER_LOG" 2>&1 &
SERVER_PID=$!

deadline=$((SECONDS + ${CONFORMANCE_START_TIMEOUT:-30}))
until (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; do
	if ! kill -0 "$SERVER_PID" 2>/dev/null; then
		tail -n 40 "$SERVER_LOG" >&2 || true
		die "server exited before listening on port $PORT"
	fi
	if ((SECONDS >= deadline)); then
		tail -n 40 "$SERVER_LOG" >&2 || true
		die "server did not listen on port $PORT within ${CONFORMANCE_START_TIMEOUT:-30}s"
	fi
	sleep 0.2
done
log "server is listening; running the $REVISION server scenarios against $URL"

CLI_LOG="$RESULTS_DIR/cli.log"
start_cli "$CLI_LOG" server server --url "$URL" --requirements "$REVISION" --timeout "$TIMEOUT_MS" -o "$RESULTS_DIR"
# Shows the CLI's progress as it runs; tail stops by itself once the CLI has exited.
tail -n +1 -f --pid="${!RUNNING[*]}" "$CLI_LOG" | grep --line-buffered '^=== Running scenario' &
progress=$!
wait_cli
wait "$progress" || true

status=0
if ! kill -0 "$SERVER_PID" 2>/dev/null; then
	log "the server exited during the run; see $SERVER_LOG"
	status=1
fi
stop_group "$SERVER_PID"
SERVER_PID=""
verdict server || status=$?
log "server output: $SERVER_LOG"
exit "$status"
