/**
 * Opens a Streamable HTTP session with raw `node:http` (initialize, then notifications/initialized,
 * then, if asked, the GET stream that real clients keep open), the same bytes for every server, so
 * that memory per session does not depend on a client.
 */
import { openStream, rawRequest } from "../impl/raw-http.js";
import { CLIENT_INFO, PROTOCOL_VERSION } from "../impl/shared.js";

const ACCEPT = "application/json, text/event-stream";

export interface RawSession {
  id: string;
  /** Closes the GET stream, if one was opened. */
  closeStream(): void;
}

/** Resolves once the session is initialized and, with `stream`, its GET stream is open. */
export async function openRawSession(url: URL, id: number, stream: boolean): Promise<RawSession> {
  const params = { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO };
  const initialize = await rawRequest(
    url,
    "POST",
    { "content-type": "application/json", accept: ACCEPT },
    JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params }),
  );
  // The answer may be JSON or a one-event SSE stream; either way it ended once the result was sent.
  const sessionId = initialize.headers["mcp-session-id"];
  if (initialize.status !== 200 || typeof sessionId !== "string") {
    throw new Error(`initialize answered ${initialize.status} without a session`);
  }
  const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": PROTOCOL_VERSION };
  const initialized = await rawRequest(
    url,
    "POST",
    { ...headers, "content-type": "application/json", accept: ACCEPT },
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  );
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`);
  if (!stream) return { id: sessionId, closeStream: () => {} };
  const opened = await openStream(url, headers);
  if (opened.status !== 200) throw new Error(`the GET stream answered ${opened.status}`);
  return { id: sessionId, closeStream: opened.close };
}

export async function deleteRawSession(url: URL, session: RawSession): Promise<void> {
  session.closeStream();
  await rawRequest(url, "DELETE", { "mcp-session-id": session.id, "mcp-protocol-version": PROTOCOL_VERSION });
}
