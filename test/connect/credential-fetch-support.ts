/**
 * The world of the `ctx.credentials.fetch` tests: API hosts as node:http servers on 127.0.0.1,
 * each recording what it was sent, and a `fetch` given to the broker (its `fetch` option) that
 * reaches `https://<host>/…` at that host's server, so https destinations are tested offline
 * without weakening the https rule. A host with no server fails like an unknown name.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { CredentialBroker, type CredentialBrokerOptions } from "../../src/connect/index.js";
import type { UserRef } from "../../src/model/identity.js";
import type { StoredCredential } from "../../src/model/interaction.js";
import type { RequestContext } from "../../src/server/index.js";
import {
  type CredentialVault,
  INSECURE_PLAINTEXT_VAULT_FOR_TESTS,
  MemoryAuditLog,
  MemoryCredentialVault,
} from "../../src/stores/index.js";
import { close, listen } from "./authorization-servers.js";

export const ALICE: UserRef = { issuer: "https://login.example", subject: "alice" };

/** What one API server was sent. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface Api {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  readonly received: Received[];
  close(): Promise<void>;
}

/** An API server answering with `answer`, which sees each request after it is recorded. */
export async function startApi(
  answer: (request: Received, response: ServerResponse) => void = (_request, response) =>
    response.writeHead(200, { "content-type": "text/plain" }).end("ok"),
): Promise<Api> {
  const running = await listen("127.0.0.1");
  const received: Received[] = [];
  running.handle((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      const request = { method: req.method ?? "GET", path: req.url ?? "/", headers: req.headers, body };
      received.push(request);
      answer(request, res);
    });
  });
  return { origin: running.origin, received, close: () => close(running.server) };
}

/**
 * A `fetch` that sends `https://<host>/path` to the server `routes` names for that host (and
 * anything else on to the real `fetch`), recording each URL it was asked for.
 */
export function routedFetch(routes: Record<string, Api>, asked: string[] = []): typeof globalThis.fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    asked.push(url.href);
    if (url.protocol !== "https:") return fetch(url, init);
    const api = Object.hasOwn(routes, url.host) ? routes[url.host] : undefined;
    if (api === undefined)
      throw new TypeError("fetch failed", { cause: new Error(`getaddrinfo ENOTFOUND ${url.hostname}`) });
    return fetch(`${api.origin}${url.pathname}${url.search}`, init);
  };
}

/** A request context as the broker reads it: the session (id, clientInfo) and the signal. */
export function contextFor(signal: AbortSignal = new AbortController().signal): RequestContext {
  return {
    signal,
    authInfo: { token: "mcp-access-token", issuer: ALICE.issuer, subject: ALICE.subject },
    session: { id: "session-7", clientInfo: { name: "agent", version: "2.1.0" } },
    interact: () => Promise.reject(new Error("no hand-off in these tests")),
  } as unknown as RequestContext;
}

/** A broker for alice with `credentials` stored, an audit log, and `options` on top. */
export async function brokerWith(
  credentials: StoredCredential[],
  options: Partial<CredentialBrokerOptions> = {},
): Promise<{ broker: CredentialBroker; vault: MemoryCredentialVault; audit: MemoryAuditLog; used: number[] }> {
  const vault = new MemoryCredentialVault({ encryption: INSECURE_PLAINTEXT_VAULT_FOR_TESTS });
  for (const credential of credentials) await vault.put(ALICE, credential);
  const used: number[] = [];
  // Records `markUsed` whether or not the vault implements it.
  const marking: CredentialVault = {
    get: (user, provider) => vault.get(user, provider),
    put: (user, credential) => vault.put(user, credential),
    delete: (user, provider) => vault.delete(user, provider),
    markUsed: async (_user, _provider, at) => {
      used.push(at);
    },
  };
  const audit = new MemoryAuditLog();
  const broker = new CredentialBroker({
    service: { userFor: (authInfo) => (authInfo?.subject === undefined ? undefined : ALICE) },
    vault: marking,
    baseUrl: "https://mcp.example",
    providers: {},
    audit,
    now: () => 1_700_000_000_000,
    tracing: false,
    ...options,
  });
  return { broker, vault, audit, used };
}

/** Whether `text` gives `secret` away as it is, percent-encoded, JSON-escaped or in base64 / base64url. */
export function quotes(text: string, secret: string): boolean {
  const spellings = [
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ v: secret }).toString().slice(2),
    JSON.stringify(secret).slice(1, -1),
    JSON.stringify(secret).slice(1, -1).replaceAll("/", "\\/"),
    Buffer.from(secret).toString("base64").replace(/=+$/, ""),
    Buffer.from(secret).toString("base64url"),
  ];
  return spellings.some((spelling) => text.includes(spelling));
}
