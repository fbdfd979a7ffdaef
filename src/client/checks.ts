/**
 * Checks the connection makes on what the server sends (the `initialize` result, every result
 * against the negotiated revision's schema, the expired-session signal of Streamable HTTP) and
 * the deadline of the handshake.
 */
import { SdkError } from "../jsonrpc/errors.js";
import type { Params, Result } from "../jsonrpc/session.js";
import type { Revision } from "../revisions/index.js";
import type { InitializeResult } from "./types.js";

/**
 * Waits for `work` until `timeoutMs` or `signal`, without touching the work itself: the
 * `initialize` request must never be cancelled (spec: basic/utilities/cancellation), so the
 * caller closes the connection instead. `what` names the work in the errors' texts.
 * @throws SdkError "REQUEST_TIMEOUT" after `timeoutMs` (ms), "REQUEST_CANCELLED" on abort.
 */
export function withDeadline<T>(
  work: Promise<T>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  what = "initialize",
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = (error: SdkError) => {
      cleanup();
      reject(error);
    };
    const onAbort = () => stop(new SdkError("REQUEST_CANCELLED", `${what} was aborted`, { cause: signal?.reason }));
    const timer = Number.isFinite(timeoutMs)
      ? setTimeout(() => stop(new SdkError("REQUEST_TIMEOUT", `${what} timed out after ${timeoutMs} ms`)), timeoutMs)
      : undefined;
    const cleanup = () => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        cleanup();
        resolve(value);
      },
      (error: unknown) => {
        cleanup();
        reject(error);
      },
    );
  });
}

/** A Streamable HTTP 404 on a known session: the server forgot it (spec: basic/transports § Session Management). */
export function isSessionExpired(error: unknown): boolean {
  return (
    error instanceof SdkError &&
    error.code === "TRANSPORT_ERROR" &&
    (error as SdkError & { sessionExpired?: unknown }).sessionExpired === true
  );
}

/**
 * Holds a result to the negotiated revision's schema, so the typed results handed out are what
 * they claim to be.
 * @throws SdkError "INVALID_RESULT" naming the first mismatch.
 */
export function checkResult(
  revision: Revision | undefined,
  method: string,
  params: Params | undefined,
  result: Result,
): void {
  const request = params === undefined ? { method } : { method, params };
  const problem = revision?.validateInbound({ jsonrpc: "2.0", id: 0, result }, { role: "client", request });
  if (problem) {
    throw new SdkError(
      "INVALID_RESULT",
      `The server's ${method} result does not match the schema: ${problem.message}`,
      {
        cause: result,
      },
    );
  }
}

export function readInitializeResult(result: Result): InitializeResult {
  const { protocolVersion, capabilities, serverInfo, instructions } = result;
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === "object" && value !== null && !Array.isArray(value);
  if (
    typeof protocolVersion !== "string" ||
    !isObject(capabilities) ||
    !isObject(serverInfo) ||
    typeof serverInfo.name !== "string" ||
    typeof serverInfo.version !== "string" ||
    (instructions !== undefined && typeof instructions !== "string")
  ) {
    throw new SdkError("INVALID_RESULT", "The server's initialize result is malformed", { cause: result });
  }
  return result as unknown as InitializeResult;
}
