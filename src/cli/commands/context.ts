/** What every command gets, and the one shape commands have. */
import { UrlElicitationRequiredError } from "../../jsonrpc/errors.js";
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

/** Retries of one request after URL-mode elicitations; a server that keeps asking is not looped on forever. */
const MAX_ROUNDS = 3;

/**
 * Sends a request; when the server answers -32042, takes the user through the listed URL-mode
 * elicitations (consent, browser, completion) and sends it again.
 * @throws CliError exit code 5 when the user declines; whatever the request throws.
 */
export async function withUrlElicitations<T>(ctx: CommandContext, send: () => Promise<T>): Promise<T> {
  for (let round = 1; ; round++) {
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof UrlElicitationRequiredError) || round > MAX_ROUNDS) throw error;
      await ctx.interactions.satisfy(error.elicitations, ctx.client.serverInfo);
    }
  }
}
