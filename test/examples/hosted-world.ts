/**
 * What the hosted hand-off examples run against in their tests: the app's origin on 127.0.0.1,
 * a real MCP authorization server that knows the connect pages (`oidc-provider`, any login name is
 * an account), every secret the example reads from the environment, the example's `fetch` handler
 * served from `node:http` with bodies streamed both ways (SSE answers included), and a client
 * token for alice stored by `handoff login`.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { expect, vi } from "vitest";
import { Browser } from "../../examples/demo/full/browser.js";
import { accessTokenFor, FileTokenStore } from "../../src/auth/index.js";
import { ExitCode } from "../../src/cli/exit-codes.js";
import { run } from "../../src/cli/run.js";
import { CLIENT_ID, startMcpLoginServer } from "../auth/client/world.js";
import { fakeIo } from "../cli/support.js";
import { close, listen } from "../connect/authorization-servers.js";

type FetchHandler = (request: Request) => Promise<Response>;

/** Serves a web-standard handler on a `node:http` request, streaming the request and the answer. */
export async function serveFetch(handler: FetchHandler, req: IncomingMessage, res: ServerResponse, origin: string) {
  const method = req.method ?? "GET";
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  const gone = new AbortController();
  res.once("close", () => gone.abort());
  const body = method === "GET" || method === "HEAD" ? undefined : (Readable.toWeb(req) as ReadableStream);
  const init = { method, headers, body, duplex: "half", signal: gone.signal };
  const response = await handler(new Request(new URL(req.url ?? "/", origin), init as RequestInit));
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") out[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out["set-cookie"] = cookies;
  res.writeHead(response.status, out);
  res.flushHeaders();
  if (response.body === null) res.end();
  else
    Readable.fromWeb(response.body as never)
      .on("error", () => res.destroy())
      .pipe(res);
}

/**
 * Sets the environment an example reads (`env`, given the app's origin, adds to it), imports it,
 * serves it, and logs alice's client in.
 */
export async function startHostedExample(
  example: string,
  env: (origin: string, closers: (() => Promise<unknown>)[]) => Promise<Record<string, string>> = async () => ({}),
) {
  const closers: (() => Promise<unknown>)[] = [];
  const folder = await mkdtemp(join(tmpdir(), "hosted-example-"));
  closers.push(() => rm(folder, { recursive: true, force: true }));
  const web = await listen("127.0.0.1");
  closers.push(() => close(web.server));
  const resource = `${web.origin}/mcp`;
  const mcpAs = await startMcpLoginServer(resource, web.origin);
  closers.push(mcpAs.close);
  const secrets = ["VAULT_KEY", "REQUEST_STATE_SECRET", "COOKIE_SECRET"];
  for (const name of secrets) vi.stubEnv(name, randomBytes(32).toString("base64"));
  const vars = { BASE_URL: web.origin, MCP_ISSUER: mcpAs.issuer, XDG_CONFIG_HOME: join(folder, "config") };
  Object.assign(vars, await env(web.origin, closers));
  for (const [name, value] of Object.entries(vars)) vi.stubEnv(name, value);
  vi.stubEnv("INTERACTIONS_FILE", join(folder, "interactions.db"));
  vi.stubEnv("VAULT_FILE", join(folder, "credentials.db"));
  vi.resetModules();
  const app = (await import(example)).default as { fetch: FetchHandler };
  web.handle((req, res) => void serveFetch(app.fetch, req, res, web.origin));

  const login = fakeIo([], { open: async (url) => void (await new Browser().goSigningIn(url, "alice")) });
  const code = await run(["login", resource, "--client-id", CLIENT_ID], login);
  expect(code, login.err()).toBe(ExitCode.Success);
  const token = await accessTokenFor(new URL(resource), { store: new FileTokenStore() });
  return {
    resource: new URL(resource),
    origin: web.origin,
    headers: { authorization: `Bearer ${token}` },
    /** The instance being served. */
    app,
    /** Another instance of the example, on the same files, with the environment as it is plus `changes`. */
    async another(changes: Record<string, string> = {}): Promise<{ fetch: FetchHandler }> {
      for (const [name, value] of Object.entries(changes)) vi.stubEnv(name, value);
      vi.resetModules();
      return (await import(example)).default as { fetch: FetchHandler };
    },
    /** Serves `handler` at the origin from now on, e.g. a balancer in front of several instances. */
    serve(handler: FetchHandler): void {
      web.handle((req, res) => void serveFetch(handler, req, res, web.origin));
    },
    async close() {
      for (const closer of closers.reverse()) await closer();
      vi.unstubAllEnvs();
    },
  };
}
