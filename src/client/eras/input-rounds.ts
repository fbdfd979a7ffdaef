/**
 * Multi round-trip requests on the client (spec 2026-07-28: basic/patterns/mrtr): an
 * `InputRequiredResult` is answered by the client's own handlers, one per input request, and the
 * original request is retried with `inputResponses` and the server's `requestState` exactly as
 * received. Each retry is a new request (new id); one call's inputs never reach another call.
 */
import { ErrorCode, ProtocolError, SdkError } from "../../jsonrpc/errors.js";
import type { Params, Result } from "../../jsonrpc/session.js";
import { readInputRequired, resultTypeOf, retryParams } from "../../revisions/index.js";
import { answerInputRequest, type HandlerHost } from "../handlers.js";

/** Rounds of input one request may take before the client gives up. */
export const DEFAULT_MAX_INPUT_ROUNDS = 8;
/** Rounds that only wait on URL pages the user already accepted; the handler paces them. */
export const DEFAULT_MAX_WAITING_ROUNDS = 500;

export interface InputRoundOptions {
  maxRounds: number;
  maxWaitingRounds: number;
  signal: AbortSignal | undefined;
}

let calls = 0;

/**
 * Runs rounds until the server's result is complete. `send` sends one attempt (a new request).
 * Rounds that only repeat URL-mode elicitations already accepted in this call count as waiting
 * rounds (bounded by `maxWaitingRounds`), not toward `maxRounds`. A URL-mode elicitation the
 * user declined or cancelled is answered so on the retry, and never put to the handler again in
 * this call.
 * @throws SdkError "REQUEST_CANCELLED" when the server asks again for a page the user declined or
 *   cancelled in this call (`cause`: that `InputRequiredResult`), with no retry sent;
 *   "INVALID_RESULT" after `maxRounds` rounds (or `maxWaitingRounds` waiting
 *   rounds), for a malformed `InputRequiredResult`, or for an input request refused as invalid
 *   (what would be -32602 over the wire, e.g. a form that carries a URL; `cause` is that
 *   ProtocolError), with no retry sent; the handlers' other ProtocolErrors as they are.
 */
export async function runInputRounds(
  host: HandlerHost,
  method: string,
  params: Params | undefined,
  first: Result,
  send: (params: Params) => Promise<Result>,
  options: InputRoundOptions,
): Promise<Result> {
  const call = ++calls;
  const accepted = new Set<string>();
  /** Pages the user declined or cancelled in this call, with that answer. */
  const refused = new Map<string, string>();
  let result = first;
  let rounds = 0;
  let waiting = 0;
  while (resultTypeOf(result) === "input_required") {
    const { inputRequests, requestState } = readInputRequired(result);
    const entries = Object.entries(inputRequests);
    const isWaiting =
      entries.length > 0 && entries.every(([, request]) => accepted.has(urlOf(request.method, request.params) ?? ""));
    if (isWaiting) waiting++;
    else rounds++;
    if (rounds > options.maxRounds || waiting > options.maxWaitingRounds) {
      throw new SdkError(
        "INVALID_RESULT",
        `${method} still asks for input after ${rounds > options.maxRounds ? options.maxRounds : options.maxWaitingRounds} rounds; not retrying again`,
        { cause: result },
      );
    }
    const responses: Record<string, Result> = {};
    for (const [key, request] of entries) {
      if (options.signal?.aborted) throw new SdkError("REQUEST_CANCELLED", `${method} was cancelled`);
      const url = urlOf(request.method, request.params);
      const answered = url === undefined ? undefined : refused.get(url);
      if (url !== undefined && answered !== undefined) {
        // The server had the user's answer and asks again: the user is not asked twice.
        throw new SdkError(
          "REQUEST_CANCELLED",
          `${method} still asks to open ${hostOf(url)}, which the user ${answered} in this call; not asking again`,
          { cause: result },
        );
      }
      const requestParams =
        url === undefined ? request.params : { ...request.params, elicitationId: `input-${call}:${url}` };
      const answer = await answerInputRequest(host, request.method, requestParams ?? {}, {
        requestId: key,
        signal: options.signal ?? new AbortController().signal,
        serverInfo: host.serverInfo ?? { name: "", version: "" },
        input: { key, round: rounds + waiting, waiting: url !== undefined && accepted.has(url) },
      }).catch((error: unknown) => {
        // `inputResponses` holds results only, so a request the client refuses cannot be answered
        // with an error as it would be over the wire: the call ends here, without a retry.
        if (!(error instanceof ProtocolError) || error.code !== ErrorCode.InvalidParams) throw error;
        throw new SdkError(
          "INVALID_RESULT",
          `${method} needs input this client refuses to give (${request.method} "${key}"): ${error.message}`,
          { cause: error },
        );
      });
      if (url !== undefined && answer.action === "accept") accepted.add(url);
      if (url !== undefined && (answer.action === "decline" || answer.action === "cancel")) {
        refused.set(url, answer.action === "decline" ? "declined" : "cancelled");
      }
      responses[key] = answer;
    }
    result = await send(retryParams(params, responses, requestState));
  }
  return result;
}

function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).host : "a page";
}

/** The URL of a URL-mode elicitation, else `undefined`. */
function urlOf(method: string, params: Record<string, unknown> | undefined): string | undefined {
  if (method !== "elicitation/create" || params?.mode !== "url") return undefined;
  return typeof params.url === "string" ? params.url : undefined;
}
