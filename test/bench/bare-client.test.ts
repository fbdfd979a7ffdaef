/**
 * The bare baseline's HTTP client is raw `node:http`: it never calls `fetch`, and it reads the
 * answers of every server form it meets (the bare server's JSON and SSE, our server's SSE) for a
 * session and for 2026-07-28 stateless POSTs. The servers run as child processes through tsx.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { bare } from "../../bench/impl/bare/index.js";
import { ours } from "../../bench/impl/ours/index.js";
import { type HttpServerProcess, startHttpServer } from "../../bench/impl/process.js";
import type { AnswerForm, Implementation } from "../../bench/impl/types.js";

let server: HttpServerProcess | undefined;
afterEach(async () => {
  vi.unstubAllGlobals();
  await server?.stop();
  server = undefined;
});

async function serve(impl: Implementation, answers: AnswerForm = "default"): Promise<URL> {
  server = await startHttpServer(impl.httpServer, answers);
  vi.stubGlobal("fetch", () => Promise.reject(new Error("the bare client used fetch")));
  return server.url;
}

describe("the bare HTTP client", { timeout: 60_000 }, () => {
  for (const answers of ["json", "sse"] as const) {
    it(`echoes in a session without fetch, the bare server answering ${answers}`, async () => {
      const session = await bare.openHttp(await serve(bare, answers));
      expect(await session.echo("héllo")).toBe("héllo");
      await session.close();
    });
  }

  it("echoes in a session with our server, which answers SSE", async () => {
    const session = await bare.openHttp(await serve(ours));
    expect(await session.echo("x".repeat(100_000))).toHaveLength(100_000);
    await session.close();
  });

  it("echoes with one stateless 2026-07-28 POST per call, against the bare server and ours", async () => {
    for (const impl of [bare, ours]) {
      const client = await bare.openStateless?.(await serve(impl));
      expect(await client?.echo("one")).toBe("one");
      expect(await client?.echo("two")).toBe("two");
      await server?.stop();
      server = undefined;
    }
  });
});
