/**
 * One run of `handoff`: parse, resolve the target, connect, run the command, close. Every
 * failure ends here as a message on stderr and an exit code; nothing is thrown out.
 */

import { lineActivity } from "./activity.js";
import { terminalActivity } from "./activity-terminal.js";
import { type ParsedCommandLine, parseCommandLine } from "./args.js";
import { connectClient, ServerExitedError } from "./client.js";
import { type CommandRun, commands } from "./commands/index.js";
import { describeError, ExitCode, exitCodeOf, UsageError } from "./exit-codes.js";
import { helpText } from "./help.js";
import { Interactions } from "./interactions.js";
import type { CliIo } from "./io.js";
import { needsLogin, offerLogin, runLogin, withStoredToken } from "./login.js";
import { runMigrate } from "./migrate.js";
import { describeTarget, resolveTarget } from "./target.js";
import { VERSION } from "./version.js";
import { Warnings } from "./warnings.js";

/** ms to wait for the `initialize` answer unless `--timeout` says otherwise. */
const CONNECT_TIMEOUT_MS = 60_000;

/** Runs the command line `argv` (without node and script paths) and resolves with the exit code. */
export async function run(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  let parsed: ParsedCommandLine;
  let start: CommandRun;
  try {
    // Takes no server: a database URL and where its tables go.
    if (argv[0] === "migrate") return await runMigrate(argv.slice(1), io);
    parsed = parseCommandLine(argv);
    if (parsed.kind === "help") {
      io.stdout(helpText());
      return ExitCode.Success;
    }
    if (parsed.kind === "version") {
      io.stdout(`${VERSION}\n`);
      return ExitCode.Success;
    }
    if (parsed.command === "login") return await loginAndExit(parsed, io);
    start = commands[parsed.command](parsed.operands);
  } catch (error) {
    return fail(io, error);
  }
  return connectAndRun(parsed, start, io);
}

async function loginAndExit(parsed: Extract<ParsedCommandLine, { kind: "command" }>, io: CliIo): Promise<ExitCode> {
  await runLogin(await resolveTarget(parsed.target, parsed.options.headers), io, parsed.options);
  return ExitCode.Success;
}

async function connectAndRun(
  parsed: Extract<ParsedCommandLine, { kind: "command" }>,
  start: CommandRun,
  io: CliIo,
): Promise<ExitCode> {
  const { options } = parsed;
  const signal = io.signal;
  const withSignal = signal === undefined ? {} : { signal };
  let target: Awaited<ReturnType<typeof resolveTarget>>;
  let client: Awaited<ReturnType<typeof connectClient>>;
  try {
    target = await resolveTarget(parsed.target, options.headers);
  } catch (error) {
    return fail(io, error);
  }
  const activity =
    io.terminal !== undefined && !options.json ? terminalActivity(io.terminal) : lineActivity(io.stderr, options.json);
  const interactions = new Interactions(
    io,
    options.noBrowser,
    target.kind === "http" ? target.url : undefined,
    activity,
  );
  const warnings = new Warnings(io.stderr);
  const connect = async () => {
    try {
      const connected = await (io.connect ?? connectClient)(
        await withStoredToken(target, io),
        { ...interactions.setup(), onerror: warnings.report, onLoggingMessage: activity.log },
        {
          timeoutMs: options.timeoutMs ?? CONNECT_TIMEOUT_MS,
          ...withSignal,
          ...(io.started === undefined ? {} : { started: io.started }),
        },
      );
      warnings.connected();
      return connected;
    } catch (error) {
      warnings.failed();
      throw error;
    }
  };
  try {
    client = await connect();
  } catch (error) {
    if (!needsLogin(error, target)) return fail(io, error, connectPrefix(error, target));
    try {
      // Logging in is the user's answer to a 401; the connection is tried once more with the new token.
      await offerLogin(target, io, options);
    } catch (refusal) {
      return fail(io, refusal);
    }
    try {
      client = await connect();
    } catch (again) {
      return fail(io, again, connectPrefix(again, target));
    }
  }
  // On 2026-07-28 a hand-off's wait happens inside the request (its input rounds), so giving up
  // on the page must end the request itself, beside Ctrl-C.
  interactions.inputRounds = client.isStateless === true;
  const requestSignal = !interactions.inputRounds
    ? withSignal
    : { signal: signal === undefined ? interactions.signal : AbortSignal.any([signal, interactions.signal]) };
  try {
    const code = await start({
      client,
      io,
      options,
      interactions,
      activity,
      requestOptions: {
        ...requestSignal,
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      },
      callOptions: { ...requestSignal, timeoutMs: options.timeoutMs ?? Number.POSITIVE_INFINITY },
    });
    // The result is printed either way; the exit code says the user turned something down.
    return interactions.declined ? ExitCode.Declined : code;
  } catch (error) {
    // The user giving up on a page ends the request; say that rather than the request's "Cancelled".
    const gaveUp = interactions.signal.aborted && signal?.aborted !== true;
    return fail(io, gaveUp ? interactions.signal.reason : error);
  } finally {
    activity.end();
    await interactions.finish();
    await client.close().catch(() => {});
  }
}

/** Says which server could not be reached, unless the message already names it. */
function connectPrefix(error: unknown, target: Awaited<ReturnType<typeof resolveTarget>>): string {
  return error instanceof ServerExitedError ? "" : `Could not connect to ${describeTarget(target)}: `;
}

function fail(io: CliIo, error: unknown, prefix = ""): ExitCode {
  io.stderr(`handoff: ${prefix}${describeError(error)}\n`);
  if (error instanceof UsageError) io.stderr("Run `handoff --help` for usage.\n");
  return exitCodeOf(error);
}
