/**
 * Checks of the inputs a multi round-trip request carries (spec 2026-07-28: basic/patterns/mrtr
 * § Error Handling): whether an answer has the shape of its input request's result. What a
 * client must have declared for one is `assertClientCapability`'s, as for a server request.
 */
import { ProtocolError } from "../../jsonrpc/errors.js";
import { decodeElicitResult } from "../elicitation.js";
import { explainMismatch } from "../explain.js";
import { INPUT_REQUESTS } from "./methods.js";

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
