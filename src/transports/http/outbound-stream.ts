/** The state of one outbound stream of a Streamable HTTP session, as the session transport keeps it. */
import type { RequestId } from "../../jsonrpc/messages.js";
import type { Sink } from "./sinks.js";

/** One logical outbound stream: the answer to a POST, or the standalone GET stream. */
export interface OutboundStream {
  readonly id: string;
  /** Requests of the POST still waiting for a response. */
  readonly pending: Set<RequestId>;
  /** The connection currently attached; `undefined` while the client is away. */
  sink: Sink | undefined;
  /** Serializes store-then-write so events keep their order. */
  chain: Promise<void>;
  /** An SSE connection was attached once, so with an event store the client can resume it. */
  resumable: boolean;
  done: boolean;
}

/** The pending set of a stream that never has requests of its own (the standalone stream). */
export const NO_REQUESTS: Set<RequestId> = new Set();

/** The chain of a stream with nothing queued; a stream's chain is replaced, never reset, once used. */
export const IDLE: Promise<void> = Promise.resolve();

export function newStream(id: string, pending: Set<RequestId>): OutboundStream {
  return { id, pending, sink: undefined, chain: IDLE, resumable: false, done: false };
}
