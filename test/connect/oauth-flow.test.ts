import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProtocolError } from "../../src/jsonrpc/errors.js";
import { CAPS, connectPeer } from "../interaction/server/harness.js";
import { Browser } from "./browser.js";
import { startWorld } from "./world.js";

type World = Awaited<ReturnType<typeof startWorld>>;
let world: World;

beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

const alice = () => ({ issuer: world.mcpIssuer, subject: "alice" });

async function peerFor(subject: string) {
  return connectPeer(world.server, {
    capabilities: CAPS.urlElicitation,
    authInfo: { token: `token-of-${subject}`, issuer: world.mcpIssuer, subject },
  });
}

/** Calls a tool expecting -32042 and returns the hand-off URL. */
async function connectUrlFrom(peer: Awaited<ReturnType<typeof peerFor>>, tool: string): Promise<string> {
  const error = await peer.client.request("tools/call", { name: tool, arguments: {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  const data = (error as ProtocolError).data as { elicitations: { url: string; elicitationId: string }[] };
  expect((error as ProtocolError).code).toBe(-32042);
  const url = data.elicitations[0]?.url ?? "";
  expect(url.startsWith(`${world.connectOrigin}/connect/`)).toBe(true);
  return url;
}

describe("connect: OAuth hand-off end to end", () => {
  it("tool call → hand-off → login as alice → third-party consent → vault → completion → retried call lists alice's items", async () => {
    const peer = await peerFor("alice");
    const url = await connectUrlFrom(peer, "repos");
    const id = url.split("/").pop() ?? "";

    const browser = new Browser();
    const page = await browser.goSigningIn(url, "alice");
    expect(page.response.status).toBe(200);
    expect(page.text).toContain("Done — return to your app");
    expect(page.response.headers.get("cache-control")).toBe("no-store");
    expect(page.response.headers.get("x-frame-options")).toBe("DENY");
    expect(page.response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");

    expect((await world.manager.get(id))?.status).toBe("completed");
    const stored = await world.vault.get(alice(), "github");
    expect(stored?.scopes).toContain("repo");
    expect(stored?.refreshToken).toBeTruthy();
    // The token never appeared in any page or redirect the browser saw.
    expect(page.text).not.toContain(stored?.secret);

    const result = (await peer.client.request("tools/call", { name: "repos", arguments: {} })) as {
      content: { text: string }[];
    };
    expect(JSON.parse(result.content[0]?.text ?? "")).toEqual(["alice-repo-1", "alice-repo-2"]);
  });
});
