/**
 * Real authorization servers for the connect tests and the full demo, each an `oidc-provider` on
 * loopback with its development login pages (any login name is an account): the MCP authorization
 * server on 127.0.0.1 and a third-party service (on `localhost` for the connect tests, another
 * cookie host as two sites would be; on 127.0.0.1 in the full demo) whose `/api/items` returns the items of the user a valid access token was issued to. The third
 * party sends the connect pages back to that provider's own redirect URI,
 * `<connect origin>/connect/callback/<provider>`. Every server has token revocation (RFC 7009) at
 * `/token/revocation` and records each token it revokes (`revocations`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/** A token the provider's revocation endpoint (RFC 7009) destroyed: its kind and whose it was. */
export interface Revocation {
  kind: "refresh token" | "access token";
  accountId: string;
}

export interface Running {
  url: string;
  close(): Promise<void>;
}

/** A node:http server on an ephemeral port whose handler is set once the port is known. */
export async function listen(
  host: string,
): Promise<{ server: Server; origin: string; handle(fn: (req: IncomingMessage, res: ServerResponse) => void): void }> {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    origin: `http://${host}:${port}`,
    handle: (fn) => {
      handler = fn;
    },
  };
}

export function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** The key the providers sign their own cookies with. */
export const PROVIDER_COOKIE_KEY = "connect-test-cookie-key-0123456789";

interface ProviderSpec {
  host: string;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  scopes: string[];
  /**
   * Whether authorization responses carry `iss` (RFC 9207) and discovery says so; default true.
   * Without it the server answers as providers that never adopted RFC 9207 do (GitHub among them).
   */
  sendIss?: boolean;
  /**
   * Prefix of the provider's cookie names (default none: `_session`, `_interaction`, ...).
   * Browsers keep cookies per host, not per port, so two providers on one host need two prefixes.
   */
  cookiePrefix?: string;
  /** Called with the provider before it serves anything, e.g. to add a middleware that watches what it issues. */
  observe?: (provider: Provider) => void;
  /** Told of each token its revocation endpoint destroys (revocation is enabled on every server here). */
  onRevocation?: (revocation: Revocation) => void;
}

/** Takes `iss` out of authorization responses and their announcement in discovery. */
function withoutIss(provider: Provider): void {
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path === "/.well-known/openid-configuration" && typeof ctx.body === "object" && ctx.body !== null) {
      delete (ctx.body as Record<string, unknown>).authorization_response_iss_parameter_supported;
    }
    const location = ctx.response.get("location");
    // Only the redirect back to the client is absolute; the provider's own pages are relative.
    if (location && URL.canParse(location)) {
      const url = new URL(location);
      if (url.searchParams.has("iss")) {
        url.searchParams.delete("iss");
        ctx.set("location", url.href);
      }
    }
  });
}

async function startProvider(
  spec: ProviderSpec,
  extra?: (provider: Provider) => (req: IncomingMessage, res: ServerResponse) => boolean,
) {
  const { server, origin, handle } = await listen(spec.host);
  const provider = new Provider(origin, {
    clients: [
      {
        client_id: spec.clientId,
        client_secret: spec.clientSecret,
        redirect_uris: spec.redirectUris,
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    scopes: spec.scopes,
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 3600, RefreshToken: 86_400, IdToken: 3600 },
    cookies: {
      keys: [PROVIDER_COOKIE_KEY],
      ...(spec.cookiePrefix === undefined ? {} : { names: cookieNames(spec.cookiePrefix) }),
    },
    // Every login name is an account, alice@example.com for "alice"; its ID token says so.
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id, ...accountClaims(id) }) }),
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["preferred_username"] },
    conformIdTokenClaims: false,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    features: {
      devInteractions: { enabled: true },
      // A client may revoke only the tokens issued to it.
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx: unknown, client: { clientId: string }, token: { clientId?: string }) =>
          token.clientId === client.clientId,
      },
    },
  });
  if (spec.sendIss === false) withoutIss(provider);
  spec.observe?.(provider);
  const revocations = recordRevocations(provider, spec.onRevocation);
  const callback = provider.callback();
  const own = extra?.(provider);
  handle((req, res) => {
    if (own?.(req, res)) return;
    callback(req, res);
  });
  return { provider, issuer: origin, revocations, close: () => close(server) };
}

/** The tokens the revocation endpoint destroyed, in order, each also told to `onRevocation`. */
function recordRevocations(provider: Provider, onRevocation?: (revocation: Revocation) => void): Revocation[] {
  const revocations: Revocation[] = [];
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path !== "/token/revocation" || ctx.status !== 200) return;
    const entities = ctx.oidc?.entities ?? {};
    const found = entities.RefreshToken
      ? { kind: "refresh token" as const, token: entities.RefreshToken }
      : entities.AccessToken
        ? { kind: "access token" as const, token: entities.AccessToken }
        : undefined;
    if (found === undefined) return;
    const revocation = { kind: found.kind, accountId: found.token.accountId };
    revocations.push(revocation);
    onRevocation?.(revocation);
  });
  return revocations;
}

/** oidc-provider's cookie names, each after `prefix`. */
export function cookieNames(prefix: string): Record<string, string> {
  return { session: `${prefix}_session`, interaction: `${prefix}_interaction`, resume: `${prefix}_interaction_resume` };
}

/** The claims of the account with login name `id`, beside its `sub`. */
export function accountClaims(id: string): Record<string, unknown> {
  return { email: `${id}@example.com`, email_verified: true, preferred_username: id };
}

export const ITEMS: Record<string, string[]> = { alice: ["alice-repo-1", "alice-repo-2"], bob: ["bob-repo"] };

export async function startMcpAuthorizationServer(connectOrigin: string) {
  return startProvider({
    host: "127.0.0.1",
    clientId: "mcp-connect",
    clientSecret: "mcp-connect-secret-for-tests",
    redirectUris: [`${connectOrigin}/connect/login`],
    scopes: ["openid", "email", "profile"],
  });
}

/**
 * The third-party service, known to the connect pages at `connectOrigin` as `provider`.
 * @param options.sendIss see `ProviderSpec.sendIss`; `options.alsoRedirectTo` lists more redirect
 *   URIs to register, as for an operator still moving from an older one; `options.host` is the
 *   host name of its issuer (default `localhost`); its cookies are named `third_party_*`.
 */
export async function startThirdParty(
  connectOrigin: string,
  provider: string,
  options: {
    sendIss?: boolean;
    alsoRedirectTo?: string[];
    host?: string;
    observe?: (provider: Provider) => void;
    onRevocation?: (revocation: Revocation) => void;
  } = {},
) {
  return startProvider(
    {
      host: options.host ?? "localhost",
      cookiePrefix: "third_party",
      clientId: "repo-connector",
      clientSecret: "repo-connector-secret-for-tests",
      redirectUris: [`${connectOrigin}/connect/callback/${provider}`, ...(options.alsoRedirectTo ?? [])],
      scopes: ["openid", "offline_access", "repo"],
      ...(options.sendIss === undefined ? {} : { sendIss: options.sendIss }),
      ...(options.observe === undefined ? {} : { observe: options.observe }),
      ...(options.onRevocation === undefined ? {} : { onRevocation: options.onRevocation }),
    },
    (provider) => (req, res) => {
      if (req.url !== "/api/items") return false;
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      void (async () => {
        const found = token === undefined ? undefined : await provider.AccessToken.find(token);
        if (found === undefined || found.isExpired) {
          res.writeHead(401).end();
          return;
        }
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(ITEMS[found.accountId] ?? []));
      })();
      return true;
    },
  );
}
