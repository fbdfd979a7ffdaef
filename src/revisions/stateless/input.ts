/**
 * Checks of the inputs a multi round-trip request carries (spec 2026-07-28: basic/patterns/mrtr
 * § Error Handling): what a client must have declared for an input request, and whether its
 * answer has the shape of that request's result.
 */
import { ProtocolError } from "../../jsonrpc/errors.js";
import { assertClientCapability } from "../capabilities.js";
import { decodeElicitResult } from "../elicitation.js";
import { explainMismatch } from "../explain.js";
import { INPUT_REQUESTS } from "./methods.js";
import { StatelessErrorCode } from "./wire.js";

/** The `ClientCapabilities` object naming what an input request needs, e.g. `{ sampling: {} }`. */
function requiredCapabilities(method: string, params: Record<string, unknown> | undefined): Record<string, unknown> {
  if (method === "sampling/createMessage") return { sampling: {} };
  if (method === "roots/list") return { roots: {} };
  if (method === "elicitation/create") return { elicitation: { [String(params?.mode ?? "form")]: {} } };
  return {};
}

/**
 * `undefined` when the request's client capabilities allow asking `method`, else the
 * MissingRequiredClientCapability error (-32021, `data.requiredCapabilities`) to answer with.
 */
export function missingCapability(
  capabilities: Record<string, unknown>,
  method: string,
  params: Record<string, unknown> | undefined,
): ProtocolError | undefined {
  const missing = assertClientCapability(capabilities, method, params);
  if (missing === undefined) return undefined;
  return new ProtocolError(StatelessErrorCode.MissingRequiredClientCapability, missing.message, {
    requiredCapabilities: requiredCapabilities(method, params),
  });
}

/**
 * `answer` (one value of `inputResponses`) as the result of `method`, once it has that result's
 * shape; an elicitation's decline or cancel loses any `content` (`decodeElicitResult`).
 * @throws ProtocolError -32602 naming the key and the failing field.
 */
export function checkInputResponse(key: string, method: string, answer: unknown): Record<string, unknown> {
  const definition = INPUT_REQUESTS.get(method)?.result;
  const problem =
    definition === undefined ? "unknown input request" : explainMismatch("2026-07-28", definition, answer, key);
  if (problem !== undefined || typeof answer !== "object" || answer === null) {
    throw new ProtocolError(
      -32602,
      `Invalid params: inputResponses.${key} does not answer ${method}: ${problem ?? "not an object"}`,
    );
  }
  const result = answer as Record<string, unknown>;
  return method === "elicitation/create" ? decodeElicitResult(result) : result;
}
