/**
 * Opens a Streamable HTTP session with plain `fetch` (initialize, then notifications/initialized),
 * the same bytes for every server, so that memory per session does not depend on a client.
 */
import { CLIENT_INFO, PROTOCOL_VERSION } from "../impl/shared.js";

const ACCEPT = "application/json, text/event-stream";

/** Resolves with the session id. */
export async function openRawSession(url: URL, id: number): Promise<string> {
  const params = { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO };
  const initialize = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params }),
  });
  // The answer may be JSON or a one-event SSE stream; either way it ends once the result is sent.
  await initialize.text();
  const sessionId = initialize.headers.get("mcp-session-id");
  if (!initialize.ok || sessionId === null)
    throw new Error(`initialize answered ${initialize.status} without a session`);
  const initialized = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: ACCEPT,
      "mcp-session-id": sessionId,
      "mcp-protocol-version": PROTOCOL_VERSION,
    },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await initialized.text();
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`);
  return sessionId;
}

export async function deleteRawSession(url: URL, sessionId: string): Promise<void> {
  const response = await fetch(url, {
    method: "DELETE",
    headers: { "mcp-session-id": sessionId, "mcp-protocol-version": PROTOCOL_VERSION },
  });
  await response.text();
}
