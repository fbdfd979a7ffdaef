/**
 * How the demo's MCP client gets an access token for alice: authorization code + PKCE (RFC 7636)
 * at the MCP authorization server, with `resource` naming the MCP server (RFC 8707). The scripted
 * browser logs in and consents; it stops before the redirect to the client, whose URL carries the code.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Browser } from "./browser.js";
import { MCP_CLIENT_ID, MCP_CLIENT_REDIRECT, MCP_SCOPE } from "./mcp-authorization-server.js";

export async function signInForMcp(
  browser: Browser,
  options: { issuer: string; resource: string; login: string; say(line: string): void },
): Promise<string> {
  const { issuer, resource, login, say } = options;
  const metadata = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as {
    authorization_endpoint: string;
    token_endpoint: string;
  };
  const verifier = randomBytes(32).toString("base64url");
  const state = randomBytes(16).toString("base64url");
  const authorize = new URL(metadata.authorization_endpoint);
  authorize.search = new URLSearchParams({
    response_type: "code",
    client_id: MCP_CLIENT_ID,
    redirect_uri: MCP_CLIENT_REDIRECT,
    scope: MCP_SCOPE,
    resource,
    state,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  }).toString();
  say(`client   signing in: sending the browser to ${authorize.origin}${authorize.pathname} (code + PKCE)`);
  const toClient = (url: URL) => url.href.startsWith(MCP_CLIENT_REDIRECT);
  const page = await browser.goSigningIn(authorize.href, login, toClient);
  const back = new URL(page.response.headers.get("location") ?? "", page.url);
  const code = back.searchParams.get("code");
  if (!toClient(back) || back.searchParams.get("state") !== state || code === null) {
    throw new Error(`The sign-in did not return a code (HTTP ${page.response.status} at ${page.url})`);
  }
  const response = await fetch(metadata.token_endpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      client_id: MCP_CLIENT_ID,
      code,
      redirect_uri: MCP_CLIENT_REDIRECT,
      code_verifier: verifier,
      resource,
    }),
  });
  const body = (await response.json()) as { access_token?: string; error?: string };
  if (body.access_token === undefined) throw new Error(`The token request failed: ${body.error ?? response.status}`);
  say(`client   got an MCP access token for ${login} (a JWT for ${resource}; not shown)`);
  return body.access_token;
}
