/**
 * What the renewal tests share: alice, a fixed clock, a token endpoint on loopback answering as
 * each test says, an expired grant of hers in a vault, and a `CredentialRenewal` over them with
 * the broker's defaults.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach } from "vitest";
import type { AuthorizationServerConfig } from "../../src/connect/oauth-server.js";
import { CredentialRenewal, type RenewalOptions } from "../../src/connect/renewal.js";
import type { StoredCredential } from "../../src/model/interaction.js";
import {
  INSECURE_PLAINTEXT_VAULT_FOR_TESTS,
  MemoryCredentialVault,
  MemoryExpiringNotes,
  MemoryKeyedLock,
} from "../../src/stores/index.js";
import { close, listen } from "./authorization-servers.js";

export const ALICE = { issuer: "https://login.example", subject: "alice" };
export const NOW = 1_800_000_000_000;

const running: { server: Parameters<typeof close>[0] }[] = [];
afterEach(async () => {
  for (const { server } of running.splice(0)) await close(server);
});

/**
 * A provider whose token endpoint answers each request, once its body is read, with `answer`;
 * stated endpoints (no discovery). Closed after each test.
 */
export async function tokenProvider(
  answer: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
  quirks: Partial<AuthorizationServerConfig> = {},
): Promise<AuthorizationServerConfig> {
  const started = await listen("127.0.0.1");
  running.push(started);
  started.handle((req, res) => {
    req.resume();
    req.on("end", () => void answer(req, res));
  });
  return {
    issuer: started.origin,
    clientId: "client",
    metadata: { authorization_endpoint: `${started.origin}/authorize`, token_endpoint: `${started.origin}/token` },
    ...quirks,
  };
}

/** Answers with `status` and `body` as JSON. */
export function json(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/** Alice's grant at "acme", expired a second ago, obtained an hour ago, stored in a new vault. */
export async function expiredGrant(overrides: Partial<StoredCredential> = {}) {
  const vault = new MemoryCredentialVault({ encryption: INSECURE_PLAINTEXT_VAULT_FOR_TESTS });
  const stale: StoredCredential = {
    provider: "acme",
    secret: "old-access-expired",
    refreshToken: "old-refresh-token",
    expiresAt: NOW - 1_000,
    updatedAt: NOW - 3_600_000,
    ...overrides,
  };
  await vault.put(ALICE, stale);
  return { vault, stale };
}

/** A renewal of `config` as "acme" over `vault`, with the broker's defaults and the fixed clock. */
export function renewalOf(
  config: AuthorizationServerConfig,
  vault: MemoryCredentialVault,
  extra: Partial<RenewalOptions> = {},
): CredentialRenewal {
  return new CredentialRenewal({
    providers: { acme: config },
    vault,
    locks: new MemoryKeyedLock(),
    notes: new MemoryExpiringNotes({ now: () => NOW }),
    renewEarlyMs: 30_000,
    forcedRefreshAfterMs: 60_000,
    leaseMs: 10_000,
    waitMs: 10_000,
    outageMs: 5_000,
    now: () => NOW,
    ...extra,
  });
}
