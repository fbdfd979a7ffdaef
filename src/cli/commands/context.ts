/** What every command gets, and the one shape commands have. */
import type { Activity } from "../activity.js";
import type { CommonOptions } from "../args.js";
import type { CallOptions, CliClient } from "../client.js";
import type { ExitCode } from "../exit-codes.js";
import type { Interactions } from "../interactions.js";
import type { CliIo } from "../io.js";

export interface CommandContext {
  client: CliClient;
  io: CliIo;
  options: CommonOptions;
  interactions: Interactions;
  /** Where the progress of a call and the server's log messages are shown. */
  activity: Activity;
  /** Options of list and read requests: `--timeout` or 60 s, and Ctrl-C. */
  requestOptions: CallOptions;
  /** Options of `tools/call`: `--timeout` or no limit (a tool may be waiting for the user), and Ctrl-C. */
  callOptions: CallOptions;
}

/** Does the work against a connected server and prints the result; resolves with the exit code. */
export type CommandRun = (ctx: CommandContext) => Promise<ExitCode>;

/**
 * A command reads its operands before any server is started and returns what it will run.
 * @throws UsageError when the operands are wrong (e.g. tool arguments that are not a JSON object).
 */
export type Command = (operands: readonly string[]) => CommandRun;

/**
 * Sends a request; when the server answers that hand-offs are needed first (-32042, -32003), takes
 * the user through them (consent, browser, completion or "done") and sends it again.
 * @throws CliError exit code 5 when the user gives up waiting or interrupts; HandoffError when a
 *   hand-off is declined, cancelled, refused, times out or loops; whatever the request throws.
 */
export function withHandoffs<T>(ctx: CommandContext, send: () => Promise<T>): Promise<T> {
  return ctx.client.callWithHandoff(send, { signal: ctx.interactions.signal });
}
