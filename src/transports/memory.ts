/**
 * Two transports joined back to back in one process, for tests and for embedding a server in
 * its client. Delivery is asynchronous and copies every message, as a real wire would.
 * @module mcp-handoff/memory
 */
import { SdkError } from "../jsonrpc/errors.js";
import type { JsonRpcMessage } from "../jsonrpc/messages.js";
import type { MessageExtra, Transport } from "../jsonrpc/transport.js";

class MemoryTransport implements Transport {
  onmessage?: (message: JsonRpcMessage | JsonRpcMessage[], extra?: MessageExtra) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  peer: MemoryTransport | undefined;
  #started = false;
  #closed = false;
  /** Messages that arrived before `start()`; delivered by it, in order. */
  #early: JsonRpcMessage[] = [];

  async start(): Promise<void> {
    if (this.#started) throw new SdkError("ALREADY_CONNECTED", "The transport was already started");
    if (this.#closed) throw new SdkError("CONNECTION_CLOSED", "The transport is closed");
    this.#started = true;
    const early = this.#early;
    this.#early = [];
    for (const message of early) this.#deliver(message);
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.#closed) throw new SdkError("CONNECTION_CLOSED", "The transport is closed");
    if (!this.#started) throw new SdkError("NOT_CONNECTED", "The transport has not been started");
    let copy: JsonRpcMessage;
    try {
      copy = structuredClone(message);
    } catch (cause) {
      throw new SdkError("INVALID_ARGUMENT", "The message cannot be copied to the peer", { cause });
    }
    const peer = this.peer;
    queueMicrotask(() => peer?.receive(copy));
  }

  /** Closes this end at once and the peer right after any message already in flight. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#early = [];
    const peer = this.peer;
    queueMicrotask(() => void peer?.close());
    this.onclose?.();
  }

  receive(message: JsonRpcMessage): void {
    if (this.#closed) return;
    if (!this.#started) {
      this.#early.push(message);
      return;
    }
    this.#deliver(message);
  }

  #deliver(message: JsonRpcMessage): void {
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

/**
 * Returns two connected transports: what one sends, the other receives, in order, in a later
 * microtask, as a `structuredClone` (the peers never share objects). Messages that arrive
 * before `start()` wait for it. Closing either end closes both; `onclose` fires once on each.
 * `send` rejects with `SdkError("CONNECTION_CLOSED")` after close and
 * `SdkError("INVALID_ARGUMENT")` for a message that cannot be cloned.
 */
export function createMemoryTransportPair(): [Transport, Transport] {
  const a = new MemoryTransport();
  const b = new MemoryTransport();
  a.peer = b;
  b.peer = a;
  return [a, b];
}
