/**
 * `connections_list` and `connections_disconnect`: the connections page's two actions as MCP tools,
 * for the request's own verified user, so the model can tell the user what is connected and take a
 * connection back when asked. Neither ever returns a secret or a refresh token.
 */
import type { AuthInfo, UserRef } from "../model/identity.js";
import type { McpServer, RequestContext } from "../server/index.js";
import { auditClient } from "../stores/audit.js";
import type { ConnectionsSource } from "./connections-page.js";
import { outcomeText, shownTime } from "./connections-page.js";

export interface ConnectionToolsOptions {
  /** Lists and disconnects: the server's `CredentialBroker`. */
  connections: ConnectionsSource;
  /** The request's verified user: the `InteractionManager`'s `userFor` (the broker's `service`). */
  userFor(authInfo: AuthInfo | undefined): UserRef | undefined;
  /** Display names of providers, as the connect pages show them; default the provider's name. */
  displayNames?: Readonly<Record<string, string>>;
}

const text = (value: string, isError = false) => ({ content: [{ type: "text" as const, text: value }], isError });

/**
 * Registers both tools on `server`. `connections_list` answers with one line per connection
 * (provider, account, scopes, created, last used, expiry) and the same as `structuredContent`;
 * `connections_disconnect { provider }` revokes at the provider and deletes (see
 * `CredentialBroker.disconnect`) and says what happened. A request without a verified user, or a
 * empty provider name, gets `isError: true`; so does a failing vault (its message only).
 * @returns the two registered tools, to `remove()` or `disable()` them.
 */
export function registerConnectionTools(server: McpServer, options: ConnectionToolsOptions) {
  const nameOf = (provider: string) =>
    (options.displayNames !== undefined && Object.hasOwn(options.displayNames, provider)
      ? options.displayNames[provider]
      : undefined) ?? provider;
  const userOf = (ctx: RequestContext) => options.userFor(ctx.authInfo);
  const noUser = () => text("Connections need a signed-in user (authorization with issuer and subject).", true);

  const list = server.registerTool(
    "connections_list",
    {
      title: "Your connections",
      description:
        "Lists the accounts at other services that you connected to this server: provider, account, scopes, when connected, last used and when access expires. Shows no secrets.",
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (_args, ctx) => {
      const user = userOf(ctx);
      if (user === undefined) return noUser();
      const connections = await options.connections.connections(user);
      if (connections.length === 0) return text("You have no connections.");
      const lines = connections.map((c) => {
        const parts = [
          `${nameOf(c.provider)} (${c.provider})`,
          `account ${c.account ?? "not known"}`,
          `scopes ${c.scopes.length === 0 ? "none recorded" : c.scopes.join(" ")}`,
          `connected ${c.createdAt === undefined ? "at a time not known" : shownTime(c.createdAt)}`,
          `last used ${c.lastUsedAt === undefined ? "never" : shownTime(c.lastUsedAt)}`,
        ];
        if (c.expiresAt !== undefined) parts.push(`access expires ${shownTime(c.expiresAt)}`);
        return `- ${parts.join("; ")}`;
      });
      return {
        content: [{ type: "text", text: lines.join("\n") }],
        structuredContent: { connections: connections.map((c) => ({ ...c })) },
      };
    },
  );

  const disconnect = server.registerTool(
    "connections_disconnect",
    {
      title: "Disconnect an account",
      description:
        "Disconnects one of your connected accounts: revokes this server's access at the provider where it can, and deletes it here. A tool that needs it later asks you to connect again.",
      // JSON Schema, so that the library itself needs no zod at run time.
      inputSchema: {
        type: "object",
        properties: {
          provider: { type: "string", description: "The provider, as connections_list names it in parentheses." },
        },
        required: ["provider"],
        additionalProperties: false,
      } as const,
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    async ({ provider }, ctx) => {
      const user = userOf(ctx);
      if (user === undefined) return noUser();
      if (provider === "") return text("Name the provider to disconnect, as connections_list shows it.", true);
      // As the client declared it, of any length: cleaned, so that the disconnect's record is kept.
      const client = auditClient(ctx.clientInfo ?? ctx.session.clientInfo);
      const by = { sessionId: ctx.session.id, ...(client === undefined ? {} : { client }) };
      return text(outcomeText(nameOf(provider), await options.connections.disconnect(user, provider, by)));
    },
  );
  return { list, disconnect };
}
