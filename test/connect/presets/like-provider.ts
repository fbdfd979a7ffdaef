/**
 * A local oidc-provider made to behave like one provider, for the preset tests: it serves the
 * preset's own endpoint paths and answers as that provider does (no discovery, no `iss`, no
 * refresh token, no revocation, comma-separated scopes, another `token_type`, refusals with HTTP
 * 200, required authorization parameters), and records what it was sent. `rehome` points a
 * preset's config at it; the presets themselves know nothing of it.
 */
import Provider from "oidc-provider";
import type { AuthorizationServerConfig } from "../../../src/connect/index.js";
import { close, listen } from "../authorization-servers.js";

export const CLIENT = { clientId: "preset-client", clientSecret: "preset-client-secret-for-tests" };
/** Where the connect pages would be served; nothing listens there, the tests stop before the callback. */
export const CONNECT_BASE = "https://connect.example/";

export interface Behaviour {
  /** Scopes the server knows. */
  scopes: readonly string[];
  /** Serves `/.well-known/*`; default true. */
  discovery?: boolean;
  /** Puts `iss` in authorization responses and announces it; default true. */
  sendIss?: boolean;
  /** When a refresh token is issued; default `always`. */
  refresh?: "always" | "offline_access" | "none";
  /** Serves an RFC 7009 revocation endpoint; default true. */
  revocation?: boolean;
  /** How it splits the request's `scope` (a space in a comma-separated one is refused); default " ". */
  requestScopes?: " " | ",";
  /** How it joins the token response's `scope`; default " ". */
  grantedScopes?: " " | ",";
  /** The `token_type` it answers with; default oidc-provider's `Bearer`. */
  tokenType?: string;
  /**
   * The scope granted when a request names none, as for a provider whose access is chosen in the
   * app's settings (oidc-provider grants nothing without one); its token responses then carry no `scope`.
   */
  impliedScope?: string;
  /** Leaves `expires_in` out of token responses, as for tokens that never expire. */
  noExpiry?: boolean;
  /** Answers token endpoint errors with HTTP 200. */
  errorsWith200?: boolean;
  /** Authorization parameters without which the authorization request is refused (HTTP 400). */
  requiredParams?: Readonly<Record<string, string>>;
  /** Authorization parameters that grant offline access, as `offline_access` does. */
  offlineParams?: Readonly<Record<string, string>>;
  authMethod?: "client_secret_post" | "client_secret_basic";
  /** Provider names whose callback `<connectBase>connect/callback/<name>` is registered; default `["p"]`. */
  providers?: readonly string[];
  /** Where the connect pages are, ending in `/`; default `CONNECT_BASE`. */
  connectBase?: string;
}

export interface LikeProvider {
  readonly origin: string;
  readonly provider: Provider;
  /** The query of each authorization request, as sent. */
  readonly authorizationRequests: URLSearchParams[];
  /** The form of each token request oidc-provider answered, and its `authorization` header. */
  readonly tokenRequests: { form: URLSearchParams; authorization: string | undefined }[];
  close(): Promise<void>;
}

interface GrantTypes {
  grantTypeAllowed(type: string): boolean;
}

/** The part of a Koa context the middleware below reads and writes. */
interface Context {
  path: string;
  method: string;
  querystring: string;
  status: number;
  body: unknown;
  response: { get(name: string): string };
  get(name: string): string;
  set(name: string, value: string): void;
  /** oidc-provider's own state, with the form it parsed. */
  oidc?: { body?: Record<string, string> };
}

/** The paths of `config`'s stated endpoints, as oidc-provider `routes`; none for a discovered one. */
function routesOf(config: AuthorizationServerConfig): Record<string, string> {
  const metadata = config.metadata;
  if (metadata === undefined) return {};
  const routes: Record<string, string> = {
    authorization: new URL(metadata.authorization_endpoint).pathname,
    token: new URL(metadata.token_endpoint).pathname,
  };
  if (metadata.userinfo_endpoint !== undefined) routes.userinfo = new URL(metadata.userinfo_endpoint).pathname;
  if (metadata.revocation_endpoint !== undefined) routes.revocation = new URL(metadata.revocation_endpoint).pathname;
  return routes;
}

/** `config` with every endpoint and its issuer moved to `origin`, paths kept: what a test points a preset at. */
export function rehome(config: AuthorizationServerConfig, origin: string): AuthorizationServerConfig {
  const move = (url: string) => {
    const moved = new URL(url);
    const target = new URL(origin);
    moved.protocol = target.protocol;
    moved.host = target.host;
    return moved.href.replace(/\/$/, "");
  };
  const moved: AuthorizationServerConfig = { ...config, issuer: move(config.issuer) };
  const metadata = config.metadata;
  if (metadata !== undefined) {
    moved.metadata = {
      ...metadata,
      authorization_endpoint: move(metadata.authorization_endpoint),
      token_endpoint: move(metadata.token_endpoint),
      ...(metadata.userinfo_endpoint === undefined ? {} : { userinfo_endpoint: move(metadata.userinfo_endpoint) }),
      ...(metadata.revocation_endpoint === undefined
        ? {}
        : { revocation_endpoint: move(metadata.revocation_endpoint) }),
    };
  }
  return moved;
}

/** Starts a server behaving as `behaviour` says, on the paths of `preset` (a config made by a preset). */
export async function startLikeProvider(
  preset: AuthorizationServerConfig,
  behaviour: Behaviour,
): Promise<LikeProvider> {
  return (await reserveLikeProvider()).start(preset, behaviour);
}

/**
 * A port for a like-provider, known before it starts: for a test whose connect pages must be
 * told the provider's origin before the provider can be told theirs.
 */
export async function reserveLikeProvider(): Promise<{
  origin: string;
  start(preset: AuthorizationServerConfig, behaviour: Behaviour): LikeProvider;
}> {
  const listening = await listen("127.0.0.1");
  return { origin: listening.origin, start: (preset, behaviour) => startOn(listening, preset, behaviour) };
}

function startOn(
  { server, origin, handle }: Awaited<ReturnType<typeof listen>>,
  preset: AuthorizationServerConfig,
  behaviour: Behaviour,
): LikeProvider {
  const refresh = behaviour.refresh ?? "always";
  const routes = routesOf(preset);
  const configuration: Record<string, unknown> = {
    clients: [
      {
        client_id: CLIENT.clientId,
        client_secret: CLIENT.clientSecret,
        redirect_uris: (behaviour.providers ?? ["p"]).map(
          (name) => new URL(`connect/callback/${name}`, behaviour.connectBase ?? CONNECT_BASE).href,
        ),
        grant_types: refresh === "none" ? ["authorization_code"] : ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: behaviour.authMethod ?? "client_secret_post",
      },
    ],
    routes,
    scopes: [
      ...new Set([
        ...behaviour.scopes,
        ...(behaviour.impliedScope === undefined ? [] : [behaviour.impliedScope]),
        "offline_access",
      ]),
    ],
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 3600, RefreshToken: 86_400, IdToken: 3600 },
    cookies: { keys: ["preset-test-cookie-key-0123456789"] },
    findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id }) }),
    issueRefreshToken: async (_ctx: unknown, client: GrantTypes, source: { scopes: Set<string> }) =>
      client.grantTypeAllowed("refresh_token") && (refresh === "always" || source.scopes.has("offline_access")),
    features: {
      devInteractions: { enabled: true },
      revocation: { enabled: behaviour.revocation ?? true },
    },
  };
  const provider = new Provider(origin, configuration);
  const koa = provider as unknown as {
    use(middleware: (ctx: Context, next: () => Promise<void>) => Promise<void>): void;
  };
  const authorizationRequests: URLSearchParams[] = [];
  const tokenRequests: LikeProvider["tokenRequests"] = [];
  const authorizationPath = routes.authorization ?? "/auth";
  const tokenPath = routes.token ?? "/token";
  koa.use(async (ctx, next) => {
    if (behaviour.discovery === false && ctx.path.startsWith("/.well-known/")) {
      ctx.status = 404;
      ctx.body = { error: "not_found" };
      return;
    }
    if (ctx.path === authorizationPath && ctx.method === "GET") {
      const query = new URLSearchParams(ctx.querystring);
      authorizationRequests.push(new URLSearchParams(query));
      for (const [name, value] of Object.entries(behaviour.requiredParams ?? {})) {
        if (query.get(name) !== value) {
          ctx.status = 400;
          ctx.body = `${name}=${value} is required`;
          return;
        }
      }
      const delimiter = behaviour.requestScopes ?? " ";
      const scope = query.get("scope") ?? "";
      if (delimiter === "," && scope.includes(" ")) {
        ctx.status = 400;
        ctx.body = "invalid_scope: scopes are comma-separated";
        return;
      }
      const scopes = scope.split(delimiter).filter(Boolean);
      if (scopes.length === 0 && behaviour.impliedScope !== undefined) scopes.push(behaviour.impliedScope);
      const offline = Object.entries(behaviour.offlineParams ?? {});
      if (offline.length > 0 && offline.every(([name, value]) => query.get(name) === value))
        scopes.push("offline_access");
      if (scopes.length > 0) query.set("scope", scopes.join(" "));
      // Real providers honour offline_access without prompt=consent; oidc-provider drops it without.
      if (scopes.includes("offline_access")) query.set("prompt", "consent");
      ctx.querystring = query.toString();
    }
    // oidc-provider takes a client secret either way; the provider this one behaves like takes only its own.
    if (ctx.path === tokenPath && ctx.method === "POST" && behaviour.authMethod === "client_secret_basic") {
      if (!/^Basic /.test(ctx.get("authorization"))) {
        ctx.status = 401;
        ctx.body = { error: "invalid_client", error_description: "HTTP Basic client authentication is required" };
        return;
      }
    }
    await next();
    if (ctx.path === tokenPath && ctx.method === "POST") {
      // oidc-provider keeps the form it parsed on ctx.oidc.body.
      const form = ctx.oidc?.body ?? {};
      tokenRequests.push({ form: new URLSearchParams(form), authorization: ctx.get("authorization") || undefined });
    }
    if (ctx.path === tokenPath && typeof ctx.body === "object" && ctx.body !== null) {
      const body = ctx.body as Record<string, unknown>;
      if (behaviour.impliedScope !== undefined) delete body.scope;
      if (typeof body.scope === "string") body.scope = body.scope.split(" ").join(behaviour.grantedScopes ?? " ");
      if (behaviour.tokenType !== undefined && "token_type" in body) body.token_type = behaviour.tokenType;
      if (behaviour.noExpiry) delete body.expires_in;
      if (behaviour.errorsWith200 && ctx.status >= 400 && typeof body.error === "string") ctx.status = 200;
    }
    if (behaviour.sendIss === false) {
      if (ctx.path === "/.well-known/openid-configuration" && typeof ctx.body === "object" && ctx.body !== null) {
        delete (ctx.body as Record<string, unknown>).authorization_response_iss_parameter_supported;
      }
      const location = ctx.response.get("location");
      if (location && URL.canParse(location)) {
        const url = new URL(location);
        if (url.searchParams.has("iss")) {
          url.searchParams.delete("iss");
          ctx.set("location", url.href);
        }
      }
    }
  });
  handle(provider.callback());
  return { origin, provider, authorizationRequests, tokenRequests, close: () => close(server) };
}
