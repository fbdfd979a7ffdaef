/**
 * What the Streamable HTTP server logic sees of one HTTP exchange, whatever the runtime: a
 * request view it reads from, and a reply it returns. `web.ts` implements them over
 * `Request`/`Response`, `node.ts` over `IncomingMessage`/`ServerResponse`, so the protocol
 * rules are written once and Node requests never pay for web objects. This file imports none of
 * the files that build replies (`sinks.ts`, `responses.ts`): they import it.
 */

import type { MessageExtra } from "../../jsonrpc/transport.js";
import type { AuthInfo } from "../../model/identity.js";
import type { BodyText } from "./body.js";

/** Request header lookup by lower-case name; a web `Headers` is one. */
export interface RequestHeaders {
  get(name: string): string | null;
}

/** @internal One request as the server logic reads it. */
export interface RequestView {
  readonly method: string;
  readonly headers: RequestHeaders;
  /** The `Host` header, or the host of the request URL when there is none. */
  host(): string;
  /** Every header as a record with lower-case names, for `MessageExtra.headers`. */
  headerRecord(): Record<string, string>;
  /**
   * The body as UTF-8 text, refused past `maxBytes` bytes (without holding more than that), or
   * when it is not in within `timeoutMs` ms.
   */
  readBody(maxBytes: number, timeoutMs: number): Promise<BodyText>;
  /** Runs `listener` once if the client goes away before the answer is complete (at once if it already has). */
  onAbort(listener: () => void): void;
  /** The local socket address the request arrived on, where the adapter can read it (read on demand). */
  localAddress?(): string | undefined;
}

/** Where an SSE reply's text goes once the adapter has the connection; a `ServerResponse` is one. */
export interface SseOutput {
  write(text: string): unknown;
  end(): unknown;
  /** Bytes written that the client has not taken yet, where the adapter knows. */
  readonly writableLength?: number;
  /** Drops the connection at once. */
  destroy?(): unknown;
}

/** @internal What an adapter does with the SSE stream of a reply (`SseSink` is the one kind). */
export interface ReplyStream {
  /** Hands over the connection; what was written so far goes first. */
  attach(out: SseOutput): void;
  /** The client went away (or never got the stream): nothing more is written. */
  cancel(): void;
  /**
   * The whole body, when the stream ended before any connection was attached to it (an answer
   * ready at once): the adapter may send it as one body of known length instead. `undefined`
   * otherwise; once it returned the text, the stream counts as sent.
   */
  takeComplete?(): string | undefined;
}

/**
 * @internal One answer: a status, headers, and either a complete body (JSON text), an SSE
 * stream written as its events are produced, or no body.
 */
export interface HttpReply {
  status: number;
  headers: Record<string, string>;
  body?: string;
  stream?: ReplyStream;
}

/**
 * @internal `MessageExtra` of one POST. The headers are copied from the request when first
 * read, as most messages never look at them; `headers` is a getter, so copy it by name, not
 * by spreading the object.
 */
export class PostExtra implements MessageExtra {
  sessionId?: string;
  authInfo?: AuthInfo;
  closeSseStream?: () => void;
  readonly #request: RequestView;
  #headers: Record<string, string> | undefined;

  constructor(request: RequestView) {
    this.#request = request;
  }

  get headers(): Record<string, string> {
    this.#headers ??= this.#request.headerRecord();
    return this.#headers;
  }
}
