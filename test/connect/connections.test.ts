/**
 * `CredentialBroker.connections` and `disconnect` against real authorization servers: what a user
 * sees of a connection (never a secret), the account the grant belongs to, the revocation that
 * reaches the provider (RFC 7009), the local delete whatever the provider said, the broadcast to
 * every instance, the audit record, and the new hand-off on the next call.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CredentialBroker } from "../../src/connect/index.js";
import type { StoredCredential } from "../../src/model/interaction.js";
import type { RequestContext } from "../../src/server/index.js";
import {
  type CredentialVault,
  InProcessMessageBus,
  type KeyedLock,
  MemoryAuditLog,
  MemoryCredentialVault,
  MemoryKeyedLock,
} from "../../src/stores/index.js";
import { recordingLogger } from "../support/recording-logger.js";
import { Browser } from "./browser.js";
import { callText, handOffUrl, peerFor } from "./calls.js";
import { startTokenEndpoint, type TokenEndpoint } from "./token-endpoint.js";
import { startWorld } from "./world.js";

const audit = new MemoryAuditLog();
let world: Awaited<ReturnType<typeof startWorld>>;

beforeAll(async () => {
  world = await startWorld({ audit });
});
afterAll(async () => {
  await world?.close();
});

const alice = () => ({ issuer: world.mcpIssuer, subject: "alice" });

/** Connects `subject`'s github through a real hand-off; resolves with the stored credential. */
async function connectGithub(subject: string): Promise<StoredCredential> {
  const peer = await peerFor(world, subject);
  const url = await handOffUrl(world, peer, "repos");
  const page = await new Browser().goSigningIn(url, subject);
  expect(page.text).toContain("Done");
  const stored = await world.vault.get({ issuer: world.mcpIssuer, subject }, "github");
  expect(stored).toBeDefined();
  return stored as StoredCredential;
}

describe("connections and disconnect, end to end", () => {
  it("lists alice's connection without its secrets, and notes when a tool used it", async () => {
    const reportsBefore = world.reports.length;
    world.clock.time = 1_800_000_000_000;
    const stored = await connectGithub("alice");
    // The grant asked for `repo` only: no ID token, and no userinfo call (it needs `openid`), so
    // the connection has no account, and nothing failed.
    expect(world.reports.slice(reportsBefore)).toEqual([]);
    const [connection, ...others] = await world.broker.connections(alice());
    expect(others).toEqual([]);
    expect(connection).toStrictEqual({
      provider: "github",
      scopes: ["repo"],
      createdAt: 1_800_000_000_000,
      expiresAt: stored.expiresAt,
    });
    const shown = JSON.stringify(connection);
    expect(shown).not.toContain(stored.secret);
    expect(shown).not.toContain(stored.refreshToken);

    world.clock.time += 60_000;
    const peer = await peerFor(world, "alice");
    expect(JSON.parse(await callText(peer, "repos"))).toEqual(["alice-repo-1", "alice-repo-2"]);
    expect((await world.broker.connections(alice()))[0]?.lastUsedAt).toBe(1_800_000_060_000);
    expect(await world.broker.connections({ issuer: world.mcpIssuer, subject: "bob" })).toEqual([]);
  });

  it("disconnect revokes the refresh token at the provider, deletes the grant, audits it, and the next call hands off again", async () => {
    const stored = (await world.vault.get(alice(), "github")) ?? (await connectGithub("alice"));
    const revokedBefore = world.thirdParty.revocations.length;
    const result = await world.broker.disconnect(alice(), "github");
    expect(result).toStrictEqual({ removed: true, upstream: "revoked", revokedToken: "refresh_token" });
    expect(world.thirdParty.revocations.slice(revokedBefore)).toEqual([{ kind: "refresh token", accountId: "alice" }]);
    expect(await world.vault.get(alice(), "github")).toBeUndefined();
    // The provider ended the whole grant: the access token no longer works either.
    const api = await fetch(`${world.thirdParty.issuer}/api/items`, {
      headers: { authorization: `Bearer ${stored.secret}` },
    });
    expect(api.status).toBe(401);

    const [record] = await audit.forUser(alice(), { limit: 1 });
    expect(record).toMatchObject({ event: "grant.revoked", provider: "github", outcome: "ok", user: alice() });
    const log = JSON.stringify(await audit.forUser(alice()));
    for (const secret of [stored.secret, stored.refreshToken ?? ""]) expect(log).not.toContain(secret);

    const peer = await peerFor(world, "alice");
    await handOffUrl(world, peer, "repos");
    expect(await world.broker.disconnect(alice(), "github")).toStrictEqual({ removed: false, upstream: "none" });
  });

  it("records the account from the ID token when the grant includes openid", async () => {
    world.server.registerTool("whoami", {}, async (_args, ctx) => {
      await ctx.credentials.require("github", { scopes: ["openid", "repo"] });
      return { content: [{ type: "text", text: "ok" }] };
    });
    const peer = await peerFor(world, "carol");
    const url = await handOffUrl(world, peer, "whoami");
    await new Browser().goSigningIn(url, "carol");
    const [connection] = await world.broker.connections({ issuer: world.mcpIssuer, subject: "carol" });
    expect(connection).toMatchObject({ provider: "github", account: "carol" });
    expect(connection?.scopes).toEqual(expect.arrayContaining(["openid", "repo"]));
  });
});

describe("disconnect when the provider cannot revoke", () => {
  const user = { issuer: "https://auth.example.com", subject: "alice" };
  const servers: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  function brokerFor(issuer: string, options: { bus?: InProcessMessageBus; vault?: MemoryCredentialVault } = {}) {
    const vault =
      options.vault ??
      new MemoryCredentialVault({ encryption: { keys: { k1: Buffer.alloc(32, 1) }, currentKeyId: "k1" } });
    const logger = recordingLogger();
    const log = new MemoryAuditLog();
    const heard: unknown[] = [];
    const broker = new CredentialBroker({
      service: { userFor: () => user },
      vault,
      baseUrl: "http://127.0.0.1:1",
      providers: { tokens: { issuer, clientId: "c", clientSecret: "s" } },
      logger,
      audit: log,
      onRevoked: (grant) => heard.push(grant),
      ...(options.bus === undefined ? {} : { bus: options.bus }),
    });
    return { broker, vault, logger, log, heard };
  }

  const credential = (provider = "tokens"): StoredCredential => ({
    provider,
    secret: "access-token-of-alice-0123",
    refreshToken: "refresh-token-of-alice-0123",
    updatedAt: 1,
  });

  async function failingRevocation(): Promise<string> {
    const server: Server = createServer((request, response) => {
      const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      if (request.url === "/.well-known/openid-configuration") {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(
          JSON.stringify({ issuer, token_endpoint: `${issuer}/token`, revocation_endpoint: `${issuer}/revoke` }),
        );
        return;
      }
      response.writeHead(503, { "content-type": "text/plain" }).end("unavailable");
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    servers.push({
      close: async () => {
        server.closeAllConnections();
        server.close();
        await once(server, "close");
      },
    });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("deletes locally and says `unsupported` when the provider has no revocation endpoint, or for a typed secret", async () => {
    const endpoint: TokenEndpoint = await startTokenEndpoint();
    servers.push(endpoint);
    const { broker, vault, log } = brokerFor(endpoint.issuer);
    await vault.put(user, credential());
    await vault.put(user, credential("forecast"));
    expect(await broker.disconnect(user, "tokens")).toStrictEqual({ removed: true, upstream: "unsupported" });
    expect(await broker.disconnect(user, "forecast")).toStrictEqual({ removed: true, upstream: "unsupported" });
    expect(await vault.list(user)).toEqual([]);
    expect((await log.forUser(user)).map((r) => [r.provider, r.outcome])).toEqual([
      ["forecast", "ok"],
      ["tokens", "ok"],
    ]);
  });

  it("deletes locally, says `failed`, audits `failed` and reports no token when the provider refuses", async () => {
    const { broker, vault, log, logger } = brokerFor(await failingRevocation());
    await vault.put(user, credential());
    expect(await broker.disconnect(user, "tokens")).toStrictEqual({
      removed: true,
      upstream: "failed",
      revokedToken: "refresh_token",
    });
    expect(await vault.get(user, "tokens")).toBeUndefined();
    expect((await log.forUser(user))[0]).toMatchObject({ event: "grant.revoked", outcome: "failed" });
    expect(logger.entries.map((e) => e.message)).toEqual([
      "The tokens provider did not revoke the token; it is deleted here all the same",
    ]);
    const told = JSON.stringify(logger.entries) + String(logger.entries[0]?.error);
    expect(told).not.toContain("refresh-token-of-alice");
    expect(told).not.toContain("access-token-of-alice");
  });

  it("waits for a refresh under way, so the renewed grant is not written back after the delete", async () => {
    const endpoint = await startTokenEndpoint();
    servers.push(endpoint);
    // The token endpoint's answer is let go once the disconnect has asked for the grant's lock (or,
    // were it not to, has deleted): then the order of the two writes is the broker's, not chance's.
    let go = () => {};
    const ready = new Promise<void>((resolve) => {
      go = resolve;
    });
    const inner = new MemoryKeyedLock();
    let holders = 0;
    const locks: KeyedLock = {
      withLock: (key, options, task) => {
        holders += 1;
        if (holders > 1) go();
        return inner.withLock(key, options, task).finally(() => {
          holders -= 1;
        });
      },
    };
    const vault = new MemoryCredentialVault({ encryption: { keys: { k1: Buffer.alloc(32, 2) }, currentKeyId: "k1" } });
    const watched: CredentialVault = {
      get: (u, p) => vault.get(u, p),
      put: (u, c) => vault.put(u, c),
      delete: (u, p) => vault.delete(u, p).finally(go),
    };
    const broker = new CredentialBroker({
      service: { userFor: () => user },
      vault: watched,
      baseUrl: "http://127.0.0.1:1",
      providers: { tokens: { issuer: endpoint.issuer, clientId: "c", clientSecret: "s" } },
      locks,
      logger: recordingLogger(),
    });
    const { accessToken, refreshToken } = endpoint.issue();
    // Expired, so the next require renews it.
    await vault.put(user, { provider: "tokens", secret: accessToken, refreshToken, expiresAt: 1, updatedAt: 1 });
    const held = endpoint.hold();
    const renewing = broker.require("tokens", {}, { authInfo: undefined } as RequestContext);
    await held.received(1);
    const disconnecting = broker.disconnect(user, "tokens");
    await ready;
    held.release();
    const [renewed, result] = await Promise.all([renewing, disconnecting]);
    expect(renewed.secret).not.toBe(accessToken);
    expect(result).toMatchObject({ removed: true, upstream: "unsupported" });
    expect(await vault.get(user, "tokens")).toBeUndefined();
  });

  it("tells every instance on the bus, and only once a grant was removed", async () => {
    const endpoint = await startTokenEndpoint();
    servers.push(endpoint);
    const bus = new InProcessMessageBus();
    const a = brokerFor(endpoint.issuer, { bus });
    const b = brokerFor(endpoint.issuer, { bus, vault: a.vault });
    await a.vault.put(user, credential());
    expect(await b.broker.disconnect(user, "nothing-here")).toMatchObject({ upstream: "none" });
    await a.broker.disconnect(user, "tokens");
    await new Promise((resolve) => setTimeout(resolve, 0));
    for (const instance of [a, b]) expect(instance.heard).toEqual([{ user, provider: "tokens" }]);
    await Promise.all([a.broker.close(), b.broker.close()]);
    await bus.close();
  });
});
