/**
 * `completion/complete` for prompt arguments and resource-template variables (spec:
 * server/utilities/completion). At most 100 values are sent; `total` and `hasMore` say how many
 * more the completer had.
 */
import { ErrorCode, ProtocolError } from "../jsonrpc/errors.js";
import type { CompleteResult } from "../revisions/index.js";
import type { PromptRegistry } from "./prompts.js";
import type { ResourceRegistry } from "./resources.js";
import type { Completer } from "./uri-template.js";

/** The spec's cap on values in one completion result. */
export const MAX_COMPLETION_VALUES = 100;

function invalid(message: string): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, `Invalid params: ${message}`);
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * Answers `completion/complete`.
 * @throws ProtocolError -32602 for a malformed request, an unknown prompt or an unknown template.
 */
export async function complete(
  params: Record<string, unknown>,
  prompts: PromptRegistry,
  resources: ResourceRegistry,
): Promise<CompleteResult> {
  const ref = record(params.ref);
  const argument = record(params.argument);
  if (!ref || !argument || typeof argument.name !== "string" || typeof argument.value !== "string") {
    throw invalid("ref and argument { name, value } are required");
  }
  const given = record(record(params.context)?.arguments) ?? {};
  const context = { arguments: Object.fromEntries(Object.entries(given).filter(([, v]) => typeof v === "string")) };

  let completer: Completer | undefined;
  if (ref.type === "ref/prompt") {
    completer = prompts.completer(ref.name, argument.name);
  } else if (ref.type === "ref/resource") {
    if (typeof ref.uri !== "string") throw invalid("ref.uri must be a string");
    const template = resources.template(ref.uri);
    if (!template && !resources.hasResource(ref.uri)) {
      throw new ProtocolError(ErrorCode.InvalidParams, `Unknown resource template: ${ref.uri}`, { uri: ref.uri });
    }
    const completers = template?.callbacks.complete ?? {};
    // Only the template's own entries: a client-chosen name such as "constructor" must not reach Object.prototype.
    completer = Object.hasOwn(completers, argument.name) ? completers[argument.name] : undefined;
  } else {
    throw invalid(`unknown reference type ${JSON.stringify(ref.type)}`);
  }

  const values = completer ? await completer(argument.value, context as { arguments: Record<string, string> }) : [];
  return {
    completion: {
      values: values.slice(0, MAX_COMPLETION_VALUES),
      total: values.length,
      hasMore: values.length > MAX_COMPLETION_VALUES,
    },
  };
}
