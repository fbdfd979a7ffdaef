/** MCP calls of the connect tests: a client for a user, and the hand-off URL a tool call answers with. */
import { expect } from "vitest";
import { ProtocolError } from "../../src/jsonrpc/errors.js";
import { CAPS, connectPeer, type Peer } from "../interaction/server/support.js";
import type { startWorld } from "./world.js";

export type World = Awaited<ReturnType<typeof startWorld>>;

/** A client for `subject`; `onElicit` answers URL-mode elicitations (default: none arrive). */
export function peerFor(
  world: World,
  subject: string,
  onElicit?: (params: Record<string, unknown>) => Promise<Record<string, unknown>>,
): Promise<Peer> {
  return connectPeer(world.server, {
    capabilities: CAPS.urlElicitation,
    authInfo: { token: `token-of-${subject}`, issuer: world.mcpIssuer, subject },
    ...(onElicit ? { handlers: { "elicitation/create": (params) => onElicit(params ?? {}) } } : {}),
  });
}

/** Calls `tool` expecting -32042 (URL elicitation required) and returns the hand-off URL. */
export async function handOffUrl(world: World, peer: Peer, tool: string): Promise<string> {
  const error = await peer.client.request("tools/call", { name: tool, arguments: {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  expect((error as ProtocolError).code).toBe(-32042);
  const data = (error as ProtocolError).data as { elicitations: { url: string }[] };
  const url = data.elicitations[0]?.url ?? "";
  expect(url.startsWith(`${world.connectOrigin}/connect/`)).toBe(true);
  return url;
}

export async function callText(peer: Peer, tool: string): Promise<string> {
  const result = (await peer.client.request("tools/call", { name: tool, arguments: {} })) as {
    content: { text: string }[];
  };
  return result.content[0]?.text ?? "";
}

export const idOf = (url: string) => url.split("/").pop() ?? "";
