/**
 * The README's hand-off snippets, run as they are: the server file served over HTTP behind bearer
 * tokens of a real MCP authorization server, beside a real third-party service; `handoff login`
 * storing the client's token; then the client file calling the tool. Its hand-off goes through
 * the default consent policy, whose terminal question and system browser are the only parts
 * replaced: the question is answered yes, and the browser is the scripted cookie-jar browser,
 * which logs in as alice at both servers.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Browser } from "../../examples/demo/full/browser.js";
import { ExitCode } from "../../src/cli/exit-codes.js";
import { run } from "../../src/cli/run.js";
import { toNodeHandler } from "../../src/transports/http/index.js";
import { CLIENT_ID, serveProtected, startMcpLoginServer } from "../auth/client/world.js";
import { fakeIo } from "../cli/helpers.js";
import { ITEMS, listen, startThirdParty } from "../connect/authorization-servers.js";

const user = vi.hoisted(() => ({
  questions: [] as string[],
  opened: [] as string[],
  browsing: Promise.resolve() as Promise<unknown>,
}));

vi.mock("@clack/prompts", () => ({
  confirm: async (prompt: { message: string }) => {
    user.questions.push(prompt.message);
    return true;
  },
  isCancel: () => false,
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
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("the README's hand-off snippets", () => {
  it("run: the client's call is handed off, connected in the browser, retried, and returns the user's repositories", async () => {
    const folder = await mkdtemp(join(tmpdir(), "handoff-snippets-"));
    closers.push(() => rm(folder, { recursive: true, force: true }));
    const web = await listen("127.0.0.1");
    const resource = `${web.origin}/mcp`;
    const mcpAs = await startMcpLoginServer(resource, web.origin);
    const thirdParty = await startThirdParty(web.origin, "github");
    closers.push(mcpAs.close, thirdParty.close);

    vi.stubEnv("BASE_URL", web.origin);
    vi.stubEnv("MCP_ISSUER", mcpAs.issuer);
    vi.stubEnv("GITHUB_ISSUER", thirdParty.issuer);
    vi.stubEnv("GITHUB_CLIENT_ID", "repo-connector");
    vi.stubEnv("GITHUB_CLIENT_SECRET", "repo-connector-secret-for-tests");
    vi.stubEnv("GITHUB_API", `${thirdParty.issuer}/api/items`);
    vi.stubEnv("VAULT_FILE", join(folder, "credentials.db"));
    vi.stubEnv("XDG_CONFIG_HOME", join(folder, "config"));
    vi.stubEnv("MCP_URL", resource);

    const { server, connectPages } = await import("../../examples/handoff/server.js");
    const servePages = toNodeHandler(connectPages);
    const served = serveProtected(web, mcpAs.issuer, server, (req, res) => {
      if (req.url?.startsWith("/connect/")) void servePages(req, res);
      else res.writeHead(404).end();
    });
    closers.push(served.close);

    const login = fakeIo([], {
      open: async (url) => {
        await new Browser().goSigningIn(url, "alice");
      },
    });
    expect(await run(["login", resource, "--client-id", CLIENT_ID], login)).toBe(ExitCode.Success);

    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    await import("../../examples/handoff/client.js");
    await user.browsing;

    expect(user.questions).toEqual(["Open it in your browser?"]);
    expect(user.opened).toHaveLength(1);
    expect(user.opened[0]).toMatch(new RegExp(`^${web.origin}/connect/`));
    expect(log.mock.calls).toEqual([[[{ type: "text", text: JSON.stringify(ITEMS.alice) }]]]);
  });
});
