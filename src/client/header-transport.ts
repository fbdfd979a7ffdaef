/**
 * A transport seen through the client: outbound requests may get per-message headers (the
 * stateless era's `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*` on Streamable HTTP), and in that era a
 * cancellation ends the request's exchange when the transport can. Everything else passes
 * straight through to the wrapped transport.
 */
import type { JsonRpcMessage, RequestId } from "../jsonrpc/messages.js";
import type { MessageExtra, Transport } from "../jsonrpc/transport.js";
import {
  cancelsRequests,
  type HttpSendOptions,
  hasSessionId,
  type ProtocolVersionTransport,
  type SessionIdTransport,
  takesProtocolVersion,
} from "../transports/features.js";

export class HeaderTransport implements Transport, SessionIdTransport, ProtocolVersionTransport {
  /** Headers for one outbound request, or `undefined` for none (the stateful era). */
  headersFor: ((method: string, params: Record<string, unknown> | undefined) => Record<string, string>) | undefined;

  constructor(readonly inner: Transport) {}

  set onmessage(handler: ((message: JsonRpcMessage | JsonRpcMessage[], extra?: MessageExtra) => void) | undefined) {
    this.inner.onmessage = handler;
  }
  get onmessage() {
    return this.inner.onmessage;
  }
  set onerror(handler: ((error: Error) => void) | undefined) {
    this.inner.onerror = handler;
  }
  get onerror() {
    return this.inner.onerror;
  }
  set onclose(handler: (() => void) | undefined) {
    this.inner.onclose = handler;
  }
  get onclose() {
    return this.inner.onclose;
  }

  get sessionId(): string | undefined {
    return hasSessionId(this.inner) ? this.inner.sessionId : undefined;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    if (takesProtocolVersion(this.inner)) this.inner.setProtocolVersion(version);
  }

  send(message: JsonRpcMessage, options?: HttpSendOptions): Promise<void> {
    const headersFor = this.headersFor;
    // In the stateless era a transport that can end a request's own exchange cancels that way
    // (Streamable HTTP closes the response stream); a notifications/cancelled POST would be refused.
    if (headersFor !== undefined && cancelsRequests(this.inner) && isCancellation(message)) {
      this.inner.cancelRequest(message.params.requestId);
      return Promise.resolve();
    }
    if (headersFor === undefined || !("method" in message) || !("id" in message)) {
      return this.inner.send(message, options);
    }
    const headers = headersFor(message.method, message.params as Record<string, unknown> | undefined);
    const withHeaders: HttpSendOptions = { ...options, headers: { ...options?.headers, ...headers } };
    return this.inner.send(message, withHeaders);
  }
}

function isCancellation(message: JsonRpcMessage): message is JsonRpcMessage & { params: { requestId: RequestId } } {
  if (!("method" in message) || "id" in message || message.method !== "notifications/cancelled") return false;
  const id = message.params?.requestId;
  return typeof id === "string" || typeof id === "number";
}
