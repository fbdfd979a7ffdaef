/**
 * The README's OAuth-grant snippets, run as they are: the server file (examples/handoff/oauth-grant.ts),
 * a web-standard app, served on 127.0.0.1 behind bearer tokens of a real MCP authorization server,
 * beside a real third-party service; `handoff login` storing the client's token; then the client
 * file calling the tool (on 2026-07-28, which it negotiates), and the same call from a client pinned
 * to 2025-11-25. The client file's hand-off goes through the consent policy, whose terminal
 * question (Node's readline) and the `open` package it is given are the only parts replaced: the
 * question is answered yes, and the browser is the scripted cookie-jar browser, which logs in as
 * alice at both servers.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { Browser } from "../../examples/demo/full/browser.js";
import { McpClient } from "../../src/client/index.js";
import { HandoffClient } from "../../src/interaction/client/index.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/index.js";
import { ITEMS, startThirdParty } from "../connect/authorization-servers.js";
import { startHostedExample } from "./hosted-world.js";

const user = vi.hoisted(() => ({
  questions: [] as string[],
  opened: [] as string[],
  browsing: Promise.resolve() as Promise<unknown>,
}));

// The terminal: the consent policy's question on stderr, answered "y" on stdin.
vi.mock("node:readline/promises", () => ({
  createInterface: () => ({
    question: async (question: string) => {
      user.questions.push(question);
      return "y";
    },
    once() {},
    close() {},
  }),
}));

vi.mock("open", () => ({
  default: async (url: string) => {
    user.opened.push(url);
    user.browsing = new Browser().goSigningIn(url, "alice");
  },
}));

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  vi.restoreAllMocks();
  user.questions = [];
  user.opened = [];
});

function startExample() {
  return startHostedExample("../../examples/handoff/oauth-grant.js", async (origin, more) => {
    const thirdParty = await startThirdParty(origin, "github");
    more.push(thirdParty.close);
    return {
      GITHUB_ISSUER: thirdParty.issuer,
      GITHUB_CLIENT_ID: "repo-connector",
      GITHUB_CLIENT_SECRET: "repo-connector-secret-for-tests",
      GITHUB_API: `${thirdParty.issuer}/api/items`,
    };
  });
}

describe("the README's OAuth-grant snippets", () => {
  it("run: the client's call is handed off, connected in the browser, retried, and returns the user's repositories", async () => {
    const world = await startExample();
    closers.push(world.close);
    vi.stubEnv("MCP_URL", world.resource.href);

    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    await import("../../examples/handoff/client.js");
    await user.browsing;

    expect(user.questions).toEqual([`Open the page on ${new URL(world.origin).host} in your browser? [y/N] `]);
    expect(user.opened).toHaveLength(1);
    expect(user.opened[0]).toMatch(new RegExp(`^${world.origin}/connect/`));
    expect(log.mock.calls).toEqual([[[{ type: "text", text: JSON.stringify(ITEMS.alice) }]]]);
  });

  it("the server file with a client pinned to 2025-11-25: handed off, granted in the browser, retried, returns the items", async () => {
    const world = await startExample();
    closers.push(world.close);
    const client = new McpClient({ name: "agent", version: "1.0.0" }, { protocolVersion: "2025-11-25" });
    let browsing: Promise<unknown> = Promise.resolve();
    const handoff = new HandoffClient(client, {
      serverUrl: world.resource,
      onInteraction: async (interaction) => {
        browsing = new Browser().goSigningIn(interaction.url, "alice");
        return "accept";
      },
    });
    await client.connect(new StreamableHttpClientTransport(world.resource, { headers: world.headers }));
    closers.push(() => client.close());
    const result = await handoff.callTool({ name: "list_repos", arguments: {} });
    await browsing;
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(ITEMS.alice) }]);
  });
});
