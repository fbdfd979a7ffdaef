/** The local error `HandoffClient.callWithHandoff` ends with when a hand-off does not lead to a retry. */
import { SdkError, type SdkErrorCode } from "../../jsonrpc/errors.js";
import type { UrlInteraction } from "./interaction.js";

/**
 * Why a request that needed a hand-off was not retried:
 * - `declined` / `cancelled`: the user's answer (SdkError code "REQUEST_CANCELLED");
 * - `refused`: the URL was not one to open (`javascript:`, `data:`, `file:`, ...; "REQUEST_CANCELLED");
 * - `timeout`: neither completion nor the user's "done" came in time ("REQUEST_TIMEOUT");
 * - `loop`: the server asked for the same URL again right after the retry, or kept asking for
 *   more rounds than allowed ("INVALID_RESULT").
 */
export type HandoffFailure = "declined" | "cancelled" | "refused" | "timeout" | "loop";

const CODES: Record<HandoffFailure, SdkErrorCode> = {
  declined: "REQUEST_CANCELLED",
  cancelled: "REQUEST_CANCELLED",
  refused: "REQUEST_CANCELLED",
  timeout: "REQUEST_TIMEOUT",
  loop: "INVALID_RESULT",
};

/** An `SdkError` (never sent to the server) with the reason and, in `cause`, the server's error that asked. */
export class HandoffError extends SdkError {
  /** The hand-off concerned, when the URL could be shown. */
  readonly interaction: UrlInteraction | undefined;

  constructor(
    readonly reason: HandoffFailure,
    message: string,
    options: { cause?: unknown; interaction?: UrlInteraction } = {},
  ) {
    super(CODES[reason], message, options.cause === undefined ? {} : { cause: options.cause });
    this.interaction = options.interaction;
  }
}
