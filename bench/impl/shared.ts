/**
 * What every implementation serves and asks, so that each runs the same workload: an `echo`
 * tool, an `ask` tool that asks the client for a form elicitation, and the answer to give.
 */

/** The revision every client asks for; all four implementations speak it. */
export const PROTOCOL_VERSION = "2025-11-25";

/** The stateless revision of the 2026 rows; ours, SDK v2 and bare speak it (SDK v1 does not). */
export const STATELESS_VERSION = "2026-07-28";

/** The `_meta` keys of a 2026-07-28 request (spec 2026-07-28: basic/versioning). */
export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
export const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";

export const ECHO_TOOL = "echo";
export const ASK_TOOL = "ask";
/** The fleet instances' tool that hands the user off to `HANDOFF_PAGE` (-32042 in revision 2025-11-25). */
export const LINK_TOOL = "link";
export const HANDOFF_PAGE = "https://connect.example.com/connect/{interactionId}";
export const HANDOFF_MESSAGE = "Link your account so the server can go on.";
/** The issuer of the fleet instances' users, each named by `Bearer <name>`. */
export const FLEET_USER_ISSUER = "https://bench.example";

export const ELICIT_MESSAGE = "Which colour?";
export const ELICIT_SCHEMA = {
  type: "object" as const,
  properties: { colour: { type: "string" as const, title: "Colour" } },
  required: ["colour"],
};
/** The client's answer; the `ask` tool returns the colour as its text. */
export const ELICIT_ANSWER = { action: "accept" as const, content: { colour: "teal" } };

export const SERVER_INFO = { name: "bench-server", version: "1.0.0" };
export const CLIENT_INFO = { name: "bench-client", version: "1.0.0" };

/** The text of a `tools/call` result's first content block, or "" when it has none. */
export function firstText(result: unknown): string {
  const content = (result as { content?: unknown }).content;
  if (!Array.isArray(content)) return "";
  const first = content[0] as { type?: unknown; text?: unknown } | undefined;
  return first?.type === "text" && typeof first.text === "string" ? first.text : "";
}
