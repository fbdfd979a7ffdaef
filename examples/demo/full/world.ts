/**
 * The full demo's servers, all on loopback: the MCP authorization server, the third-party service
 * with its API, and the MCP server with its connect pages. The demo and the browser tests start
 * the same world.
 */
import { close, listen, startThirdParty } from "./authorization-servers.js";
import { startItemsServer } from "./items-server.js";
import { startMcpAuthorizationServer } from "./mcp-authorization-server.js";

/** The MCP server's client at the third party. */
export const THIRD_PARTY_CLIENT = { clientId: "repo-connector", clientSecret: "repo-connector-secret-for-tests" };

export interface FullWorld {
  /** The MCP endpoint (Streamable HTTP, bearer tokens only). */
  resource: string;
  /** Origin of the MCP server, whose `/connect/*` are the connect pages. */
  origin: string;
  mcpIssuer: string;
  thirdPartyIssuer: string;
  /** Names of the servers by `host:port`, for narrating the browser's requests. */
  labels: ReadonlyMap<string, string>;
  /** The third-party token the vault holds for `subject`, if any. */
  storedSecret(subject: string): Promise<string | undefined>;
  close(): Promise<void>;
}

export async function startFullWorld(options: {
  say(line: string): void;
  /** See `ItemsServerConfig.waitInRequest`. */
  waitInRequest?: boolean;
  /** See `ItemsServerConfig.inbox`. */
  inbox?: boolean;
}): Promise<FullWorld> {
  const { say } = options;
  const web = await listen("127.0.0.1");
  const resource = `${web.origin}/mcp`;
  const mcpAs = await startMcpAuthorizationServer(web.origin, resource);
  say(`setup    MCP authorization server (oidc-provider) at ${mcpAs.issuer}`);
  // Every service on 127.0.0.1; the third party's cookies have names of their own (see startThirdParty).
  const thirdParty = await startThirdParty(web.origin, "items", { host: "127.0.0.1" });
  say(`setup    third-party service (oidc-provider + /api/items) at ${thirdParty.issuer}`);
  const items = startItemsServer({
    web,
    mcpIssuer: mcpAs.issuer,
    thirdParty: { issuer: thirdParty.issuer, ...THIRD_PARTY_CLIENT },
    say,
    ...(options.waitInRequest === undefined ? {} : { waitInRequest: options.waitInRequest }),
    ...(options.inbox === undefined ? {} : { inbox: options.inbox }),
  });
  say(`setup    MCP server at ${resource} (bearer tokens only), connect pages at ${web.origin}/connect/`);
  return {
    resource,
    origin: web.origin,
    mcpIssuer: mcpAs.issuer,
    thirdPartyIssuer: thirdParty.issuer,
    labels: new Map([
      [new URL(mcpAs.issuer).host, "MCP authorization server"],
      [new URL(thirdParty.issuer).host, "third party"],
      [new URL(web.origin).host, "MCP server"],
    ]),
    storedSecret: items.storedSecret,
    close: async () => {
      await items.close();
      await Promise.all([mcpAs.close(), thirdParty.close(), close(web.server)]);
    },
  };
}
