/** How a `JsonRpcSession` hears its transport. */
import type { Transport, TransportReceiver } from "./transport.js";

/**
 * Makes `receiver` hear `transport`: through `setReceiver` where the transport offers it (one
 * reference instead of three functions, for the thousands of idle sessions of an HTTP server),
 * else by setting its three callbacks.
 */
export function attachReceiver(transport: Transport, receiver: TransportReceiver): void {
  if (transport.setReceiver !== undefined) {
    transport.setReceiver(receiver);
    return;
  }
  transport.onmessage = (message, extra) => receiver.receive(message, extra);
  transport.onerror = (error) => receiver.transportFailed(error);
  transport.onclose = () => receiver.transportClosed();
}
