/**
 * `handoff login` against a real authorization server, then the other commands with the stored
 * token. The browser the command opens is the scripted cookie-jar browser.
 */
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Browser } from "../../examples/demo/full/browser.js";
import { FileTokenStore } from "../../src/auth/client/index.js";
import { ExitCode } from "../../src/cli/exit-codes.js";
import { run } from "../../src/cli/run.js";
import { CLIENT_ID, type LoginWorld, startLoginWorld } from "../auth/client/world.js";
import { fakeIo } from "./support.js";

let world: LoginWorld;
let folder: string;
let tokens: FileTokenStore;

beforeEach(async () => {
  world = await startLoginWorld();
  folder = await mkdtemp(join(tmpdir(), "handoff-cli-login-"));
  tokens = new FileTokenStore(join(folder, "tokens.json"));
});

afterEach(async () => {
  await world.close();
  await rm(folder, { recursive: true, force: true });
});

/** A browser that logs in as `login` wherever it is sent. */
const browserAs = (login: string) => async (url: string) => {
  await new Browser().goSigningIn(url, login);
};

describe("handoff login", () => {
  it("logs in through the browser, and `tools` then sends the stored token", async () => {
    const io = fakeIo([], { tokens, open: browserAs("alice") });
    expect(await run(["login", world.resource, "--client-id", CLIENT_ID], io)).toBe(ExitCode.Success);
    expect(io.err()).toContain(`Log in at ${world.issuer} to use ${world.resource}.`);
    expect(io.err()).toContain(
      `Logged in at ${world.issuer} for ${world.resource}; the token is kept in ${tokens.path}.`,
    );
    expect(io.out()).toBe("");

    world.requests.length = 0;
    const tools = fakeIo([], { tokens });
    expect(await run(["tools", world.resource], tools)).toBe(ExitCode.Success);
    expect(tools.out()).toContain("whoami");
    expect(world.requests.filter((r) => r.path === "/mcp").every((r) => r.bearer)).toBe(true);

    const call = fakeIo([], { tokens });
    expect(await run(["call", world.resource, "whoami"], call)).toBe(ExitCode.Success);
    expect(call.out()).toBe("alice\n");
  });

  it("registers itself without --client-id, and prints the URL instead of opening a browser with --no-browser", async () => {
    let browsing: Promise<void> = Promise.resolve();
    const io = fakeIo([], {
      tokens,
      open: async () => {
        throw new Error("no browser may be opened");
      },
      stderr: (text) => {
        const printed = /^ {2}(http:\/\/\S+)$/m.exec(text)?.[1];
        if (printed !== undefined) browsing = browserAs("bob")(printed);
      },
    });
    expect(await run(["login", world.resource, "--no-browser"], io)).toBe(ExitCode.Success);
    await browsing;
    const call = fakeIo([], { tokens });
    expect(await run(["call", world.resource, "whoami"], call)).toBe(ExitCode.Success);
    expect(call.out()).toBe("bob\n");
  });

  it("refuses a redirect whose iss is another server's, exits 3 and stores nothing", async () => {
    const io = fakeIo([], {
      tokens,
      open: async (url) => {
        const browser = new Browser();
        const page = await browser.goSigningIn(url, "alice", (next) => next.pathname === "/callback");
        const callback = new URL(page.response.headers.get("location") ?? "", page.url);
        callback.searchParams.set("iss", "https://attacker.example");
        await browser.go(callback.href);
      },
    });
    expect(await run(["login", world.resource, "--client-id", CLIENT_ID], io)).toBe(ExitCode.Connection);
    expect(io.err()).toMatch(/Login failed: .*iss/);
    await expect(stat(tokens.path)).rejects.toThrow(/ENOENT/);
  });

  it("asks for --client-id when the authorization server does not register clients, and opens nothing", async () => {
    const closed = await startLoginWorld({ registration: false });
    try {
      const io = fakeIo([], { tokens });
      expect(await run(["login", closed.resource], io)).toBe(ExitCode.Connection);
      expect(io.err()).toContain("offers no dynamic client registration");
      expect(io.err()).toContain("(--client-id ID)");
      expect(io.opened).toEqual([]);
    } finally {
      await closed.close();
    }
  });

  it("refuses a stdio target", async () => {
    const io = fakeIo([], { tokens });
    expect(await run(["login", "--", "node", "server.js"], io)).toBe(ExitCode.Usage);
  });
});

describe("a command against a server that answers 401", () => {
  it("says how to log in when there is no terminal to ask", async () => {
    const io = fakeIo([], { tokens, interactive: false });
    expect(await run(["tools", world.resource], io)).toBe(ExitCode.Connection);
    expect(io.err()).toContain(`needs you to log in: run \`handoff login ${world.resource}\``);
  });

  it("offers a login, and goes on with the new token once the user says yes", async () => {
    const io = fakeIo([true], { tokens, open: browserAs("carol") });
    expect(await run(["call", world.resource, "whoami"], io)).toBe(ExitCode.Success);
    expect(io.prompter.asked.map((a) => a.prompt.message)).toEqual([
      `${world.resource} needs you to log in. Log in now in your browser?`,
    ]);
    expect(io.out()).toBe("carol\n");
    expect((await tokens.find(world.resource))?.issuer).toBe(world.issuer);
  });

  it("exits 5 when the user does not want to log in", async () => {
    const io = fakeIo([false], { tokens });
    expect(await run(["tools", world.resource], io)).toBe(ExitCode.Declined);
    expect(io.opened).toEqual([]);
  });

  it("refreshes an expired stored token before connecting", async () => {
    await run(["login", world.resource, "--client-id", CLIENT_ID], fakeIo([], { tokens, open: browserAs("alice") }));
    const first = await tokens.find(world.resource);
    if (first === undefined) throw new Error("no token stored");
    await tokens.put({ ...first, expiresAt: Date.now() - 1 });

    const io = fakeIo([], { tokens, interactive: false });
    expect(await run(["call", world.resource, "whoami"], io)).toBe(ExitCode.Success);
    expect(io.out()).toBe("alice\n");
    const renewed = await tokens.find(world.resource);
    expect(renewed?.accessToken).not.toBe(first.accessToken);
    expect(renewed?.expiresAt).toBeGreaterThan(Date.now());
  });
});
