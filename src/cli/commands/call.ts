/** `handoff call <target> <tool> [json-arguments]`: runs one tool and prints its result. */
import { describeError, ExitCode, UsageError } from "../exit-codes.js";
import { renderCallResult, renderJson } from "../output.js";
import { printableLine } from "../text.js";
import { type Command, type CommandContext, withHandoffs } from "./context.js";

export const callCommand: Command = ([name = "", json]) => {
  const params = json === undefined ? { name } : { name, arguments: parseToolArguments(json) };
  return async (ctx) => {
    await askForLogs(ctx);
    const options = { ...ctx.callOptions, onprogress: ctx.activity.progress };
    const result = await withHandoffs(ctx, () => ctx.client.callTool(params, options));
    // A "Done in the browser?" question the retry answered first is closed before the result.
    await ctx.interactions.finish();
    ctx.activity.end();
    ctx.io.stdout(ctx.options.json ? renderJson(result) : renderCallResult(result));
    if (result.isError !== true) return ExitCode.Success;
    if (!ctx.options.json) ctx.io.stderr(`${toolErrorLine(ctx, printableLine(name))}\n`);
    return ExitCode.ToolError;
  };
};

/**
 * The last line for a result with `isError`. After a declined request (exit code 5) the error is
 * most likely the server saying it could not go on without it, so the line says that instead.
 */
function toolErrorLine(ctx: CommandContext, name: string): string {
  if (!ctx.interactions.declined) return `The tool "${name}" reported an error.`;
  if (!ctx.io.interactive) {
    return (
      `The call to "${name}" was not completed: what the server asked for was declined, since stdin is not a terminal. ` +
      "Run the command at a terminal to be asked."
    );
  }
  return `The call to "${name}" was not completed: you declined what the server asked for.`;
}

/** Log messages from `info` up are shown while the tool runs: asked for when the server has `logging`. */
const LOG_LEVEL = "info";

async function askForLogs(ctx: CommandContext): Promise<void> {
  const { client } = ctx;
  if (client.serverCapabilities?.logging === undefined || client.setLoggingLevel === undefined) return;
  try {
    await client.setLoggingLevel({ level: LOG_LEVEL }, ctx.requestOptions);
  } catch (error) {
    // Not worth failing the call for: it runs, without the server's log messages.
    ctx.io.stderr(`handoff: warning: the server's log messages are not shown: ${describeError(error)}\n`);
  }
}

/**
 * Tool arguments as given on the command line: a JSON object.
 * @throws UsageError when the text is not JSON or not an object.
 */
export function parseToolArguments(json: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new UsageError(`The tool arguments are not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError('The tool arguments must be a JSON object, e.g. \'{"city": "Paris"}\'');
  }
  return value as Record<string, unknown>;
}
