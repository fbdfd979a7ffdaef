/**
 * What a Streamable HTTP session transport keeps that few sessions use (callbacks set as
 * properties, resumable streams, cancelled ids, notifications waiting for the GET stream, a fleet
 * replica's state), made whole on first need: an idle session holds one empty field for it all.
 */
import type { JsonRpcMessage, RequestId } from "../../jsonrpc/messages.js";
import type { MessageExtra } from "../../jsonrpc/transport.js";
import type { PresumedHandshakeOffer } from "../features.js";
import type { OutboundStream } from "./outbound-stream.js";
import type { ReplicaState } from "./session-fleet.js";

/** A transport's three callbacks, as set on it (a name present and `undefined`: set to nothing). */
export interface Callbacks {
  onmessage?: ((message: JsonRpcMessage | JsonRpcMessage[], extra?: MessageExtra) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
}

/** How many unrelated notifications wait for the standalone stream; the oldest go first. */
const MAX_UNSENT_NOTIFICATIONS = 100;
/**
 * How many cancelled request ids are remembered to drop a response that crossed the cancellation;
 * such a response follows its cancellation closely, so the oldest ids are forgotten first.
 */
const MAX_CANCELLED_IDS = 1000;

/** What a session transport keeps that few sessions use; made, whole, when the first is needed. */
export class RareState {
  /** The callbacks set as properties, made when the first is: a session with a receiver holds none. */
  callbacks: Callbacks | undefined = undefined;
  /** Prefixes stream ids in the event store, so a `Last-Event-ID` names its session. */
  tag: string | undefined = undefined;
  /** Streams by id, kept only where they can be resumed (an event store and a session). */
  streams: Map<string, OutboundStream> | undefined = undefined;
  /**
   * Requests the client cancelled while they were pending; a response that crossed the cancellation
   * is dropped. Made on the first cancellation.
   */
  cancelled: Set<RequestId> | undefined = undefined;
  /** Notifications for the standalone stream sent before the client opened it. */
  unsent: JsonRpcMessage[] | undefined = undefined;
  /** What this replica of a fleet's session keeps; `undefined` outside a fleet. */
  replica: ReplicaState | undefined = undefined;
  /** See `StreamableHttpSessionTransport.presumedHandshake` (stateless mode only). */
  presumedHandshake: PresumedHandshakeOffer | undefined = undefined;

  /** Sets one of the three callbacks, as a property of the transport would be. */
  setCallback<K extends keyof Callbacks>(name: K, callback: Callbacks[K]): void {
    this.callbacks ??= {};
    this.callbacks[name] = callback;
  }

  /** Remembers that the client cancelled `id`, forgetting the oldest past `MAX_CANCELLED_IDS`. */
  rememberCancelled(id: RequestId): void {
    this.cancelled ??= new Set();
    this.cancelled.add(id);
    if (this.cancelled.size > MAX_CANCELLED_IDS)
      this.cancelled.delete(this.cancelled.values().next().value as RequestId);
  }

  /** Keeps a notification until the client opens its GET stream, dropping the oldest past `MAX_UNSENT_NOTIFICATIONS`. */
  keepUnsent(message: JsonRpcMessage): void {
    this.unsent ??= [];
    if (this.unsent.length === MAX_UNSENT_NOTIFICATIONS) this.unsent.shift();
    this.unsent.push(message);
  }

  /** The kept notifications, handed over once: the GET stream opened. */
  takeUnsent(): JsonRpcMessage[] | undefined {
    const unsent = this.unsent;
    this.unsent = undefined;
    return unsent;
  }
}

/** Whether `name` was set as a property on the transport that holds `rare` (then it, not the receiver, is called). */
export function hasCallback(rare: RareState | undefined, name: keyof Callbacks): boolean {
  return rare?.callbacks !== undefined && name in rare.callbacks;
}
