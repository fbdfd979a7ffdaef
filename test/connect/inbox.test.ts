/**
 * The inbox rung end to end, without a browser engine: a client that declared no elicitation calls
 * a tool needing a GitHub grant and gets only the fixed inbox URL; the user signs in there, sees
 * the request, completes it through its connect page, and the retry succeeds. And what the inbox
 * refuses: a visitor without a session goes to the login, and nobody sees another user's requests.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inboxUrlFor } from "../../src/connect/index.js";
import { connectPeer, type Peer } from "../interaction/server/support.js";
import { Browser } from "./browser.js";
import type { World } from "./calls.js";
import { startWorld } from "./world.js";

let world: World;
beforeAll(async () => {
  world = await startWorld({ inbox: true });
});
afterAll(async () => {
  await world?.close();
});

const user = (subject: string) => ({ issuer: world.mcpIssuer, subject });

/** A client of `subject` that declared no elicitation capability at all. */
function plainClient(subject: string): Promise<Peer> {
  return connectPeer(world.server, {
    capabilities: {},
    authInfo: { token: `token-of-${subject}`, issuer: world.mcpIssuer, subject },
  });
}

async function repos(peer: Peer): Promise<{ isError?: boolean; text: string }> {
  const result = (await peer.client.request("tools/call", { name: "repos", arguments: {} })) as {
    isError?: boolean;
    content: { text: string }[];
  };
  return { ...(result.isError === undefined ? {} : { isError: result.isError }), text: result.content[0]?.text ?? "" };
}

/** The links of the inbox's requests, `/connect/<id>`. */
const requestLinks = (html: string) => [...html.matchAll(/<a class="open" href="([^"]+)"/g)].map((m) => m[1] ?? "");

describe("connect: the inbox", () => {
  it("takes a client without elicitation from the tool error to the inbox, the connect page, and a retry that succeeds", async () => {
    const inbox = inboxUrlFor(world.connectOrigin);
    expect(inbox).toBe(`${world.connectOrigin}/connect/inbox`);
    const peer = await plainClient("alice");
    const first = await repos(peer);
    expect(first.isError).toBe(true);
    expect(first.text.match(/https?:\/\/\S+?(?=[\s;,]|$)/g)).toEqual([inbox]);
    const [waiting] = await world.manager.openFor(user("alice"));
    expect(first.text).not.toContain(waiting?.id);

    const alice = new Browser();
    const page = await alice.goSigningIn(inbox, "alice");
    expect(page.url).toBe(inbox);
    expect(page.response.status).toBe(200);
    expect(page.response.headers.get("cache-control")).toBe("no-store");
    expect(page.response.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.text).toContain("Requests waiting for you");
    expect(page.text).toContain("Connect github");
    expect(page.text).toContain("Connect &#60;Test&#62; asks:");
    expect(page.text).toContain("“test-client”");
    expect(requestLinks(page.text)).toEqual([`/connect/${waiting?.id}`]);

    const done = await alice.goSigningIn(new URL(requestLinks(page.text)[0] ?? "", inbox).href, "alice");
    expect(done.text).toContain("Done — return to your app");
    expect(await world.vault.get(user("alice"), "github")).toBeDefined();
    expect(requestLinks((await alice.go(inbox)).text)).toEqual([]);
    const retried = await repos(peer);
    expect(retried.isError).toBeUndefined();
    expect(JSON.parse(retried.text)).toEqual(["alice-repo-1", "alice-repo-2"]);
  });

  it("sends a visitor without a session to the login, and lists nothing before it", async () => {
    await repos(await plainClient("carol"));
    const visitor = new Browser();
    const answer = await visitor.request(inboxUrlFor(world.connectOrigin));
    expect(answer.status).toBe(303);
    expect(new URL(answer.headers.get("location") ?? "").origin).toBe(new URL(world.mcpIssuer).origin);
    expect(await answer.text()).toBe("");
    // Positive control: the same visitor, signed in as carol, sees carol's request.
    const page = await visitor.goSigningIn(inboxUrlFor(world.connectOrigin), "carol");
    expect(requestLinks(page.text)).toHaveLength(1);
  });

  it("never lists another user's requests: bob sees only his own, alice's stay hidden and pending", async () => {
    await repos(await plainClient("dave"));
    const [daves] = await world.manager.openFor(user("dave"));
    const bob = new Browser();
    const empty = await bob.goSigningIn(inboxUrlFor(world.connectOrigin), "bob");
    expect(empty.response.status).toBe(200);
    expect(requestLinks(empty.text)).toEqual([]);
    expect(empty.text).not.toContain(daves?.id);
    expect(empty.text).toContain("Nothing is waiting for you");
    // Positive control: bob's own request is listed, and still nobody else's.
    await repos(await plainClient("bob"));
    const [bobs] = await world.manager.openFor(user("bob"));
    const listed = await bob.go(inboxUrlFor(world.connectOrigin));
    expect(requestLinks(listed.text)).toEqual([`/connect/${bobs?.id}`]);
    expect(listed.text).not.toContain(daves?.id);
    expect((await world.manager.get(daves?.id ?? ""))?.status).toBe("pending");
  });

  it("answers a POST to the inbox with nothing", async () => {
    const alice = new Browser();
    await alice.goSigningIn(inboxUrlFor(world.connectOrigin), "alice");
    const posted = await alice.request(inboxUrlFor(world.connectOrigin), { form: { action: "anything" } });
    expect(posted.status).toBe(405);
  });
});

describe("connect: the inbox under a path", () => {
  it("lives at <baseUrl>/connect/inbox and links each request under the same path", async () => {
    expect(inboxUrlFor("https://mcp.example.com/app")).toBe("https://mcp.example.com/app/connect/inbox");
    expect(inboxUrlFor("https://mcp.example.com/app/")).toBe("https://mcp.example.com/app/connect/inbox");
    const prefixed = await startWorld({ inbox: true, prefix: "/app" });
    try {
      const inbox = inboxUrlFor(prefixed.connectOrigin);
      expect(new URL(inbox).pathname).toBe("/app/connect/inbox");
      const peer = await connectPeer(prefixed.server, {
        capabilities: {},
        authInfo: { token: "token-of-erin", issuer: prefixed.mcpIssuer, subject: "erin" },
      });
      expect((await repos(peer)).text).toContain(inbox);
      const [waiting] = await prefixed.manager.openFor({ issuer: prefixed.mcpIssuer, subject: "erin" });
      const page = await new Browser().goSigningIn(inbox, "erin");
      expect(page.url).toBe(inbox);
      expect(requestLinks(page.text)).toEqual([`/app/connect/${waiting?.id}`]);
    } finally {
      await prefixed.close();
    }
  });
});
