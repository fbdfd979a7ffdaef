/**
 * What the instances of a fleet tell each other about one Streamable HTTP session, on its bus
 * channel: small JSON with a version field, checked on receipt. A message that is malformed or of
 * another version is reported and ignored, never acted on. Nothing travels here that the MCP
 * messages themselves do not already carry (no tokens, no owners).
 */
import { checkMessage } from "../../jsonrpc/frame.js";
import type { JsonRpcMessage } from "../../jsonrpc/messages.js";
import type { SessionChange } from "./session-directory.js";

/** The version of the format; a message with any other is ignored. */
export const FLEET_MESSAGE_VERSION = 1;

/** One message on a session's channel, sent by instance `from`. */
export type FleetMessage =
  /**
   * Events were stored on the session's GET stream: the instance holding that stream writes them.
   * With `stream`: on that stream of a POST, which another instance follows (`following`).
   */
  | { v: 1; from: string; kind: "stored"; stream?: string }
  /**
   * The client resumed stream `stream` of a POST that instance `to` serves on `from`: `to` tells
   * what it stores on it from now on (`stored`), and when it ends (`streamEnd`), at once if it did.
   */
  | { v: 1; from: string; kind: "following"; to: string; stream: string }
  /** Stream `stream` of a POST got every response it owed: an instance following it ends its connection. */
  | { v: 1; from: string; kind: "streamEnd"; stream: string }
  /** A GET stream of the session opened on `from`: a connection held elsewhere is stale. */
  | { v: 1; from: string; kind: "listening" }
  /** The session ended (DELETE): every instance closes its replica. */
  | { v: 1; from: string; kind: "ended" }
  /** The client changed the session (`logging/setLevel`, `resources/subscribe`, `resources/unsubscribe`). */
  | { v: 1; from: string; kind: "change"; change: SessionChange }
  /**
   * A message of the client's for instance `to` (the answer to its request, progress on it), or,
   * without `to`, for every instance (a `notifications/cancelled` of a request running anywhere).
   */
  | { v: 1; from: string; kind: "forward"; to?: string; message: JsonRpcMessage };

/** The text to publish. */
export function encodeFleetMessage(message: FleetMessage): string {
  return JSON.stringify(message);
}

/** The message in `text`, or why it is not one (for the report). */
export function decodeFleetMessage(text: string): FleetMessage | { invalid: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { invalid: "not JSON" };
  }
  if (typeof value !== "object" || value === null) return { invalid: "not an object" };
  const m = value as Record<string, unknown>;
  if (m.v !== FLEET_MESSAGE_VERSION) return { invalid: `format version ${JSON.stringify(m.v)}` };
  if (typeof m.from !== "string" || m.from === "") return { invalid: "no sender" };
  const from = m.from;
  switch (m.kind) {
    case "stored":
      if (m.stream === undefined) return { v: 1, from, kind: "stored" };
      return typeof m.stream === "string"
        ? { v: 1, from, kind: "stored", stream: m.stream }
        : { invalid: "a malformed stream" };
    case "following":
      if (typeof m.to !== "string" || typeof m.stream !== "string") return { invalid: "a malformed following" };
      return { v: 1, from, kind: "following", to: m.to, stream: m.stream };
    case "streamEnd":
      return typeof m.stream === "string"
        ? { v: 1, from, kind: "streamEnd", stream: m.stream }
        : { invalid: "a malformed stream" };
    case "listening":
    case "ended":
      return { v: 1, from, kind: m.kind };
    case "change": {
      const change = changeOf(m.change);
      return change === undefined ? { invalid: "a malformed change" } : { v: 1, from, kind: "change", change };
    }
    case "forward": {
      if (m.to !== undefined && typeof m.to !== "string") return { invalid: "a malformed recipient" };
      const message = checkMessage(m.message);
      if (typeof message === "string") return { invalid: `a malformed JSON-RPC message (${message})` };
      return m.to === undefined
        ? { v: 1, from, kind: "forward", message }
        : { v: 1, from, kind: "forward", to: m.to, message };
    }
    default:
      return { invalid: `unknown kind ${JSON.stringify(m.kind)}` };
  }
}

function changeOf(value: unknown): SessionChange | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const keys = Object.keys(value);
  const [key] = keys;
  const item = (value as Record<string, unknown>)[key ?? ""];
  if (keys.length !== 1 || typeof item !== "string") return undefined;
  if (key === "logLevel") return { logLevel: item };
  if (key === "subscribe") return { subscribe: item };
  if (key === "unsubscribe") return { unsubscribe: item };
  return undefined;
}
