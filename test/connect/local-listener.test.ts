/**
 * `startLocalConnect`'s listener as a user meets it: it listens on 127.0.0.1 at a free port, judges
 * each request by the `Host` the client really sent, refuses an oversized post, listens nowhere
 * but loopback, and does not keep a stdio server alive once its client has gone.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { type LocalConnect, startLocalConnect } from "../../src/connect/index.js";

const ROOT = new URL("../..", import.meta.url).pathname;
let local: LocalConnect | undefined;
afterEach(async () => {
  await local?.close();
  local = undefined;
});

/** One raw HTTP/1.1 request, so the `Host` header is exactly the one given. */
function send(
  port: number,
  options: { host: string; path?: string; method?: string; body?: string },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: options.path ?? "/connect/AAAAAAAAAAAAAAAAAAAAAA",
        method: options.method ?? "GET",
        headers: { host: options.host, "content-type": "application/x-www-form-urlencoded" },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

describe("the local connect listener", () => {
  it("listens on 127.0.0.1 at a free port by default", async () => {
    local = await startLocalConnect();
    expect(local.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Number(new URL(local.origin).port)).toBeGreaterThan(0);
  });

  it("answers a rebound Host with 421 and a loopback Host with the page's own answer (404 for an unknown link)", async () => {
    local = await startLocalConnect();
    const port = Number(new URL(local.origin).port);
    const rebound = await send(port, { host: `evil.example:${port}` });
    expect(rebound.status).toBe(421);
    expect(rebound.text).toContain("Wrong address");
    // Hosts no URL can hold are refused the same way, not failed on.
    for (const host of ["a b", "[::1", `127.0.0.1:${port}@evil.example`]) {
      const odd = await send(port, { host });
      expect(odd.status, host).toBe(421);
      expect(odd.text).toContain("Wrong address");
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const own = await send(port, { host });
      expect(own.status).toBe(404);
      expect(own.text).toContain("Link not found");
    }
  });

  it("refuses a post larger than a form with 413, and reads a small one", async () => {
    local = await startLocalConnect();
    const port = Number(new URL(local.origin).port);
    const host = `127.0.0.1:${port}`;
    expect((await send(port, { host, method: "POST", body: `secret=${"x".repeat(70_000)}` })).status).toBe(413);
    // Read and judged: no same-origin evidence, so the page refuses it as a cross-site post.
    expect((await send(port, { host, method: "POST", body: "secret=x" })).status).toBe(403);
  });

  it("refuses to listen on an address other than loopback", async () => {
    await expect(startLocalConnect({ host: "0.0.0.0" as "127.0.0.1" })).rejects.toThrow(RangeError);
  });

  it("does not keep the README's stdio server running once its client closes stdin", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "examples/handoff/local-api-key.ts"], {
      cwd: ROOT,
      stdio: ["pipe", "pipe", "inherit"],
    });
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    try {
      child.stdin.write(`${JSON.stringify(initialize)}\n`);
      const [answer] = (await once(child.stdout, "data")) as [Buffer];
      expect(answer.toString()).toContain('"serverInfo"');
      const exited = once(child, "exit");
      child.stdin.end();
      const [code] = await exited;
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill();
    }
  });
});
