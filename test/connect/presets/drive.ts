/**
 * Runs the connect flow's own functions against a local provider: `startGrant` makes the
 * authorization URL, a scripted browser logs in as alice and consents, and `finishGrant` turns the
 * answer (taken before it reaches the connect pages) into a credential. Renewal is the broker's.
 */
import { randomBytes } from "node:crypto";
import { type AuthorizationServerConfig, CredentialBroker, MemoryGrantStateStore } from "../../../src/connect/index.js";
import { OAuthServers } from "../../../src/connect/oauth-server.js";
import { finishGrant, type ProviderFlowDeps, startGrant } from "../../../src/connect/provider-flow.js";
import type { StoredCredential } from "../../../src/model/interaction.js";
import type { RequestContext } from "../../../src/server/index.js";
import { MemoryCredentialVault } from "../../../src/stores/index.js";
import { Browser } from "../browser.js";
import { Clock } from "../world.js";
import { CONNECT_BASE } from "./like-provider.js";

export const alice = { issuer: "https://mcp.example", subject: "alice" };

export interface Flow {
  clock: Clock;
  deps: ProviderFlowDeps;
  vault: MemoryCredentialVault;
  broker: CredentialBroker;
}

/** The flow's parts for one provider named `p` (or those of `providers`), on an injectable clock. */
export function flowFor(providers: Record<string, AuthorizationServerConfig>): Flow {
  const clock = new Clock();
  const deps: ProviderFlowDeps = {
    providers,
    servers: new OAuthServers(),
    states: new MemoryGrantStateStore(clock.now),
    baseUrl: new URL(CONNECT_BASE),
    now: clock.now,
  };
  const vault = new MemoryCredentialVault({ encryption: { keys: { k1: randomBytes(32) }, currentKeyId: "k1" } });
  const broker = new CredentialBroker({
    service: { userFor: () => alice },
    vault,
    baseUrl: CONNECT_BASE,
    providers,
    now: clock.now,
  });
  return { clock, deps, vault, broker };
}

/** Up to the provider's redirect back: the authorization URL sent, and the callback URL it answered with. */
export async function authorize(
  flow: Flow,
  scopes: string[],
  provider = "p",
): Promise<{ authorizationUrl: URL; callback: URL; state: string }> {
  const authorizationUrl = new URL(
    await startGrant(flow.deps, {
      interactionId: "interaction-1",
      user: alice,
      provider,
      scopes,
      expiresAt: flow.clock.now() + 600_000,
    }),
  );
  const browser = new Browser();
  const atCallback = (url: URL) => url.href.startsWith(CONNECT_BASE);
  const page = await browser.goSigningIn(authorizationUrl.href, "alice", atCallback);
  const location = page.response.headers.get("location");
  if (location === null) throw new Error(`The provider answered ${page.response.status}: ${page.text.slice(0, 200)}`);
  const callback = new URL(location, page.url);
  return { authorizationUrl, callback, state: callback.searchParams.get("state") ?? "" };
}

/** Takes the grant's `state` as the callback page does and finishes the grant with `callback`. */
export async function finish(flow: Flow, callback: URL, state: string): Promise<StoredCredential> {
  const grant = await flow.deps.states.take(state);
  if (grant === undefined) throw new Error("No grant is pending under that state");
  return finishGrant(flow.deps, grant, callback, state);
}

/** The whole grant: authorize, then finish; the credential is stored in the flow's vault as the pages would. */
export async function connect(flow: Flow, scopes: string[], provider = "p") {
  const { authorizationUrl, callback, state } = await authorize(flow, scopes, provider);
  const credential = await finish(flow, callback, state);
  await flow.vault.put(alice, credential);
  return { authorizationUrl, callback, credential };
}

/** What a tool's `ctx.credentials.require` gets: the credential, or the hand-off it would start. */
export async function requireNow(
  flow: Flow,
  scopes: string[],
  provider = "p",
): Promise<{ credential: StoredCredential } | { handOff: true } | { error: unknown }> {
  try {
    return { credential: await flow.broker.require(provider, { scopes }, {} as RequestContext) };
  } catch (error) {
    if (error instanceof Error && error.name === "InteractionRequired") return { handOff: true };
    return { error };
  }
}
