/**
 * `toNodeHandler` given a web-standard handler: the request as the handler sees it (method, URL
 * from `Host`, headers, body), the response as the client gets it (status, headers, each
 * `Set-Cookie` apart, body), and a throw answered 500 and reported to `console.error` by default.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { toNodeHandler, type WebHandler } from "../../src/transports/http/index.js";

const servers: Server[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: WebHandler): Promise<string> {
  const server = createServer(toNodeHandler(handler));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("toNodeHandler(web handler)", () => {
  it("hands the handler the request and the client the response, two Set-Cookie kept apart", async () => {
    const origin = await serve(async (request) => {
      const seen = {
        method: request.method,
        url: request.url,
        note: request.headers.get("x-note"),
        body: await request.text(),
      };
      const headers = new Headers({ "content-type": "application/json", "x-answer": "yes" });
      headers.append("set-cookie", "a=1; Path=/; HttpOnly");
      headers.append("set-cookie", "b=2; Path=/; Max-Age=0");
      return new Response(JSON.stringify(seen), { status: 201, headers });
    });
    const response = await fetch(`${origin}/things?x=1`, {
      method: "POST",
      headers: { "x-note": "hello", "content-type": "text/plain" },
      body: "the body",
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-answer")).toBe("yes");
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/; HttpOnly", "b=2; Path=/; Max-Age=0"]);
    expect(await response.json()).toEqual({
      method: "POST",
      url: `${origin}/things?x=1`,
      note: "hello",
      body: "the body",
    });
  });

  it("answers 500 to a handler that throws and reports the error to console.error by default", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const origin = await serve(() => {
      throw new Error("a bug");
    });
    const response = await fetch(`${origin}/`);
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain("a bug");
    expect(error).toHaveBeenCalledWith(
      "A request handler failed",
      expect.objectContaining({ err: expect.objectContaining({ message: "a bug" }) }),
    );
  });
});
