/**
 * Why the interaction manager refused: a local error (an `SdkError`) with a stable code, for the web
 * side (the connect flow) to turn into a page. It never crosses the MCP wire and never carries the
 * interaction's URL or its user.
 */
import { SdkError } from "../../jsonrpc/errors.js";

export type InteractionErrorCode =
  /**
   * No interaction has this id (or it was purged), or it belongs to another user (issuer or subject
   * differ): the two are answered alike, so an id tells nothing to anyone but its user.
   */
  | "NOT_FOUND"
  /** Its deadline passed before it completed. */
  | "EXPIRED"
  /** It is no longer waiting: already completed, declined or cancelled. */
  | "NOT_PENDING"
  /** The user declined to open the page. */
  | "DECLINED"
  /** The request that asked was cancelled, or the client dismissed it. */
  | "CANCELLED";

/** An `SdkError` whose `code` is an `InteractionErrorCode` and whose `name` is "InteractionError". */
export class InteractionError extends SdkError<InteractionErrorCode> {
  override readonly name = "InteractionError";
}
