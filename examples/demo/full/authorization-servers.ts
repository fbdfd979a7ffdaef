/**
 * Real authorization servers for the connect tests and the full demo, each an `oidc-provider` on
 * loopback with its development login pages (any login name is an account): the MCP authorization
 * server on 127.0.0.1 and a third-party service on `localhost` (another cookie host, as two sites would be)
 * whose `/api/items` returns the items of the user a valid access token was issued to.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

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

interface ProviderSpec {
  host: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  scopes: string[];
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
        redirect_uris: [spec.redirectUri],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    scopes: spec.scopes,
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 3600, RefreshToken: 86_400, IdToken: 3600 },
    cookies: { keys: ["connect-test-cookie-key-0123456789"] },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    features: { devInteractions: { enabled: true }, revocation: { enabled: true } },
  });
  const callback = provider.callback();
  const own = extra?.(provider);
  handle((req, res) => {
    if (own?.(req, res)) return;
    callback(req, res);
  });
  return { provider, issuer: origin, close: () => close(server) };
}

export const ITEMS: Record<string, string[]> = { alice: ["alice-repo-1", "alice-repo-2"], bob: ["bob-repo"] };

export async function startMcpAuthorizationServer(connectOrigin: string) {
  return startProvider({
    host: "127.0.0.1",
    clientId: "mcp-connect",
    clientSecret: "mcp-connect-secret-for-tests",
    redirectUri: `${connectOrigin}/connect/login`,
    scopes: ["openid"],
  });
}

export async function startThirdParty(connectOrigin: string) {
  return startProvider(
    {
      host: "localhost",
      clientId: "repo-connector",
      clientSecret: "repo-connector-secret-for-tests",
      redirectUri: `${connectOrigin}/connect/callback`,
      scopes: ["openid", "offline_access", "repo"],
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
