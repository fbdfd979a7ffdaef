/** Shared by the session tests: a session with the raw wire beside it, two connected sessions, polling. */
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { JsonRpcSession } from "../../src/jsonrpc/session.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";

/** A session on one side and the raw transport on the other, to see exactly what goes over the wire. */
export async function sessionAndWire(options?: ConstructorParameters<typeof JsonRpcSession>[0]) {
  const [a, b] = createMemoryTransportPair();
  const session = new JsonRpcSession(options);
  const received: JsonRpcMessage[] = [];
  b.onmessage = (m) => {
    if (Array.isArray(m)) received.push(...m);
    else received.push(m);
  };
  await b.start();
  await session.connect(a);
  return { session, wire: b, received };
}

export async function connectedPair() {
  const [a, b] = createMemoryTransportPair();
  const left = new JsonRpcSession();
  const right = new JsonRpcSession();
  await Promise.all([left.connect(a), right.connect(b)]);
  return { left, right };
}

export const flush = () => new Promise((r) => setTimeout(r, 0));

/** Polls `read` on the event loop until it returns something; fails after 200 turns. */
export async function until<T>(read: () => T | undefined): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = read();
    if (value !== undefined) return value;
    await flush();
  }
  throw new Error("condition never held");
}
