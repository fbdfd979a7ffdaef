/**
 * The bare baseline's Streamable HTTP clients, on raw `node:http` with a keep-alive agent (no
 * fetch, no web streams): one POST per message, the answer read whole, JSON or SSE. A session
 * client (initialize, then calls with the session id, DELETE at the end) and a 2026-07-28 client
 * (one stateless POST per call, its `_meta` and headers as the revision asks).
 */

import { answerTo, rawRequest, resultOf } from "../raw-http.js";
import {
  CLIENT_INFO,
  ECHO_TOOL,
  firstText,
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_PROTOCOL_VERSION,
  PROTOCOL_VERSION,
  STATELESS_VERSION,
} from "../shared.js";
import type { HttpSession } from "../types.js";

const ACCEPT = "application/json, text/event-stream";

export async function openBareHttp(url: URL): Promise<HttpSession> {
  let sessionId: string | undefined;
  let next = 0;
  const headers = (): Record<string, string> => {
    const out: Record<string, string> = { "content-type": "application/json", accept: ACCEPT };
    if (sessionId !== undefined) {
      out["mcp-session-id"] = sessionId;
      out["mcp-protocol-version"] = PROTOCOL_VERSION;
    }
    return out;
  };
  const request = async (method: string, params: Record<string, unknown>) => {
    const id = ++next;
    const answer = await rawRequest(url, "POST", headers(), JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    if (answer.status !== 200) throw new Error(`POST ${method} answered ${answer.status}`);
    const assigned = answer.headers["mcp-session-id"];
    if (typeof assigned === "string") sessionId ??= assigned;
    return resultOf(answerTo(answer, id));
  };
  await request("initialize", { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO });
  const initialized = await rawRequest(
    url,
    "POST",
    headers(),
    '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  );
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`);
  return {
    echo: async (text) => firstText(await request("tools/call", { name: ECHO_TOOL, arguments: { text } })),
    close: async () => {
      await rawRequest(url, "DELETE", headers());
    },
  };
}

/** The `_meta` every 2026-07-28 request carries. */
const STATELESS_META = {
  [META_PROTOCOL_VERSION]: STATELESS_VERSION,
  [META_CLIENT_CAPABILITIES]: {},
  [META_CLIENT_INFO]: CLIENT_INFO,
};

export async function openBareStateless(url: URL): Promise<HttpSession> {
  let next = 0;
  return {
    async echo(text) {
      const id = ++next;
      const params = { name: ECHO_TOOL, arguments: { text }, _meta: STATELESS_META };
      const headers = {
        "content-type": "application/json",
        accept: ACCEPT,
        "mcp-protocol-version": STATELESS_VERSION,
        "mcp-method": "tools/call",
        "mcp-name": ECHO_TOOL,
      };
      const answer = await rawRequest(
        url,
        "POST",
        headers,
        JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params }),
      );
      if (answer.status !== 200)
        throw new Error(`POST tools/call answered ${answer.status}: ${answer.body.slice(0, 200)}`);
      return firstText(resultOf(answerTo(answer, id)));
    },
    close: async () => {},
  };
}
