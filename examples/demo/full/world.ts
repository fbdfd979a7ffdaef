/**
 * The full demo's servers, all on loopback: the MCP authorization server, the third-party service
 * with its API, and the MCP server with its connect pages. The demo and the browser tests start
 * the same world.
 */
import { type AuditLog, MemoryAuditLog } from "../../../src/stores/index.js";
import { close, listen, PROVIDER_COOKIE_KEY, type Revocation, startThirdParty } from "./authorization-servers.js";
import { collectIssuedSecrets } from "./issued-secrets.js";
import { startItemsServer } from "./items-server.js";
import { MCP_AS_COOKIE_KEY, startMcpAuthorizationServer } from "./mcp-authorization-server.js";

/** The MCP server's client at the third party. */
export const THIRD_PARTY_CLIENT = { clientId: "repo-connector", clientSecret: "repo-connector-secret-for-tests" };

export interface FullWorld {
  /** The MCP endpoint (Streamable HTTP, bearer tokens only). */
  resource: string;
  /** Origin of the MCP server, whose `/connect/*` are the connect pages. */
  origin: string;
  mcpIssuer: string;
  thirdPartyIssuer: string;
  /** The tokens the third party's revocation endpoint destroyed, in order. */
  revocations: readonly Revocation[];
  /** Names of the servers by `host:port`, for narrating the browser's requests. */
  labels: ReadonlyMap<string, string>;
  /** The third-party token the vault holds for `subject`, if any. */
  storedSecret(subject: string): Promise<string | undefined>;
  /** Where the MCP server records each hand-off step, grant and refresh. */
  audit: AuditLog;
  /**
   * Every secret of the run so far: what both authorization servers issued (tokens, codes,
   * `state`s), their cookie keys and client secrets, the MCP server's keys and the tokens its vault
   * holds for `subjects`. Read it before `close()`.
   */
  secretsUsed(subjects: readonly string[]): Promise<string[]>;
  close(): Promise<void>;
}

export async function startFullWorld(options: {
  say(line: string): void;
  /** See `ItemsServerConfig.waitInRequest`. */
  waitInRequest?: boolean;
  /** The MCP server's audit log; default one in memory. */
  audit?: AuditLog;
  /** See `ItemsServerConfig.inbox`. */
  inbox?: boolean;
}): Promise<FullWorld> {
  const { say } = options;
  const audit = options.audit ?? new MemoryAuditLog();
  const issued = new Set<string>();
  const observe = collectIssuedSecrets(issued);
  const web = await listen("127.0.0.1");
  const resource = `${web.origin}/mcp`;
  const mcpAs = await startMcpAuthorizationServer(web.origin, resource, { observe });
  say(`setup    MCP authorization server (oidc-provider) at ${mcpAs.issuer}`);
  // Every service on 127.0.0.1; the third party's cookies have names of their own (see startThirdParty).
  const thirdParty = await startThirdParty(web.origin, "items", {
    host: "127.0.0.1",
    observe,
    onRevocation: ({ kind, accountId }) =>
      say(`third party  revoked the ${kind} of ${accountId} at its revocation endpoint (RFC 7009)`),
  });
  say(`setup    third-party service (oidc-provider + /api/items) at ${thirdParty.issuer}`);
  const items = startItemsServer({
    web,
    mcpIssuer: mcpAs.issuer,
    thirdParty: { issuer: thirdParty.issuer, ...THIRD_PARTY_CLIENT },
    say,
    audit,
    ...(options.waitInRequest === undefined ? {} : { waitInRequest: options.waitInRequest }),
    ...(options.inbox === undefined ? {} : { inbox: options.inbox }),
  });
  say(`setup    MCP server at ${resource} (bearer tokens only), connect pages at ${web.origin}/connect/`);
  return {
    resource,
    origin: web.origin,
    mcpIssuer: mcpAs.issuer,
    thirdPartyIssuer: thirdParty.issuer,
    revocations: thirdParty.revocations,
    labels: new Map([
      [new URL(mcpAs.issuer).host, "MCP authorization server"],
      [new URL(thirdParty.issuer).host, "third party"],
      [new URL(web.origin).host, "MCP server"],
    ]),
    storedSecret: items.storedSecret,
    audit,
    secretsUsed: async (subjects) => [
      ...issued,
      PROVIDER_COOKIE_KEY,
      MCP_AS_COOKIE_KEY,
      ...(await items.secretsUsed(subjects)),
    ],
    close: async () => {
      await items.close();
      await Promise.all([mcpAs.close(), thirdParty.close(), close(web.server)]);
    },
  };
}
