/**
 * Pages the user refused inside a call's `InputRequiredResult` rounds (revision 2026-07-28). The
 * refusal travels to the server on the retry, so the server has the last word; when the call
 * then fails anyway, it ends as a refused -32042 does on 2025-11-25: with HandoffError
 * "declined" or "cancelled". Each call gets a signal of its own, the one its rounds hand the
 * elicitation handler, so a refusal is known to belong to that call and to no other.
 */
import type { CallOptions } from "../../client/index.js";
import { ProtocolError, SdkError } from "../../jsonrpc/errors.js";
import { HandoffError } from "./errors.js";
import type { InteractionAnswer } from "./interaction.js";

interface Refusal {
  reason: "declined" | "cancelled";
  host: string;
}

export class RoundRefusals {
  readonly #bySignal = new WeakMap<AbortSignal, Refusal>();

  /**
   * Runs `call` with a signal of its own (following `options.signal`); `failed` says whether a
   * result is a failure (a tool's `isError`).
   * @throws HandoffError "declined" | "cancelled" when the user refused a page in this call's rounds
   *   and the call failed: a failing result, the server's error, or the client's refusal to ask
   *   again (`cause` is that); anything else `call` throws, as it is.
   */
  async run<T>(
    options: CallOptions | undefined,
    call: (options: CallOptions) => Promise<T>,
    failed: (result: T) => boolean,
  ): Promise<T> {
    const signal = options?.signal ? AbortSignal.any([options.signal]) : new AbortController().signal;
    try {
      const result = await call({ ...options, signal });
      if (failed(result)) this.#throwIfRefused(signal, result);
      return result;
    } catch (error) {
      // The server's answer to the refusal, or the client's refusal to ask again; not a transport failure.
      const answered =
        error instanceof ProtocolError || (error instanceof SdkError && error.code === "REQUEST_CANCELLED");
      if (answered && !(error instanceof HandoffError) && !options?.signal?.aborted) {
        this.#throwIfRefused(signal, error);
      }
      throw error;
    } finally {
      this.#bySignal.delete(signal);
    }
  }

  /** The user answered `answer` for a page on `url` in the rounds of the call that carries `signal`. */
  note(signal: AbortSignal, answer: InteractionAnswer, url: string): void {
    if (answer === "accept") return;
    this.#bySignal.set(signal, {
      reason: answer === "cancel" ? "cancelled" : "declined",
      host: URL.canParse(url) ? new URL(url).host : "an unparsable URL",
    });
  }

  #throwIfRefused(signal: AbortSignal, cause: unknown): void {
    const refusal = this.#bySignal.get(signal);
    if (refusal === undefined) return;
    const message = `The user ${refusal.reason} opening ${refusal.host}; the request did not go on without it`;
    throw new HandoffError(refusal.reason, message, { cause });
  }
}
