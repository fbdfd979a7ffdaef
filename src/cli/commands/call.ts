/** `handoff call <target> <tool> [json-arguments]`: runs one tool and prints its result. */
import { ExitCode, UsageError } from "../exit-codes.js";
import { renderCallResult, renderJson } from "../output.js";
import { printableLine } from "../text.js";
import { type Command, withHandoffs } from "./context.js";

export const callCommand: Command = ([name = "", json]) => {
  const params = json === undefined ? { name } : { name, arguments: parseToolArguments(json) };
  return async (ctx) => {
    const result = await withHandoffs(ctx, () => ctx.client.callTool(params, ctx.callOptions));
    ctx.io.stdout(ctx.options.json ? renderJson(result) : renderCallResult(result));
    if (result.isError !== true) return ExitCode.Success;
    if (!ctx.options.json) ctx.io.stderr(`The tool "${printableLine(name)}" reported an error.\n`);
    return ExitCode.ToolError;
  };
};

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
