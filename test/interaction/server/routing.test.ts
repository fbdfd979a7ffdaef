/**
 * Where hand-off answers and completions go: across server instances that share a store and a
 * bus, from requests other than tool calls, and nowhere once the session is closed.
 */
import { describe, expect, it } from "vitest";
import { InteractionManager } from "../../../src/interaction/server/index.js";
import { type ProtocolError, UrlElicitationRequiredError } from "../../../src/jsonrpc/errors.js";
import { InteractionRequired } from "../../../src/server/index.js";
import {
  CAPS,
  CONNECT_MESSAGE,
  CONNECT_URL,
  connectPeer,
  createManager,
  LOCAL_USER,
  newServer,
  until,
} from "./support.js";
import { callTool, handoffServer } from "./tools.js";

describe("completion across instances", () => {
  it("completed through another instance's manager reaches the session on this one", async () => {
    const { manager, store, bus, clock } = createManager();
    const { server } = handoffServer(manager);
    const peer = await connectPeer(server, { capabilities: CAPS.urlElicitation });
    const error = (await callTool(peer.client, "repos").catch((e: unknown) => e)) as UrlElicitationRequiredError;
    const id = error.elicitations[0]?.elicitationId ?? "";
    const otherInstance = new InteractionManager({ store, bus, now: clock.now });
    await otherInstance.complete(id, { user: LOCAL_USER });
    await until(() => peer.notifications("notifications/elicitation/complete")[0]);
    expect(peer.notifications("notifications/elicitation/complete")).toEqual([{ elicitationId: id }]);
  });

  it("stops listening when the session closes", async () => {
    const { manager, bus } = createManager();
    const { server } = handoffServer(manager);
    const peer = await connectPeer(server, { capabilities: CAPS.urlElicitation });
    await callTool(peer.client, "repos").catch(() => undefined);
    expect(bus.listeners()).toBe(1);
    await peer.client.close();
    await until(() => (bus.listeners() === 0 ? true : undefined));
  });
});

describe("InteractionRequired outside tools", () => {
  it("answers resources/read with the client's error form, or -32603 without a URL", async () => {
    const { manager } = createManager();
    const server = newServer(manager);
    server.registerResource("repo", "github://octo/hello-world", {}, () => {
      throw new InteractionRequired({ url: CONNECT_URL, message: CONNECT_MESSAGE });
    });
    const read = (peer: Awaited<ReturnType<typeof connectPeer>>) =>
      peer.client.request("resources/read", { uri: "github://octo/hello-world" }).catch((e: unknown) => e);
    const url = await connectPeer(server, { capabilities: CAPS.urlElicitation });
    expect(await read(url)).toBeInstanceOf(UrlElicitationRequiredError);
    const ua = await connectPeer(server, { capabilities: CAPS.userInteraction });
    expect(((await read(ua)) as ProtocolError).code).toBe(-32003);
    const none = await connectPeer(server, { capabilities: CAPS.none });
    const refused = (await read(none)) as ProtocolError;
    expect(refused.code).toBe(-32603);
    expect(refused.message).toMatch(/cannot open the page/);
    expect(JSON.stringify(none.log)).not.toContain("mcp.example.com");
  });
});
