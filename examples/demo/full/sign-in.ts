/**
 * How the demo's MCP client gets an access token for alice: authorization code + PKCE (RFC 7636)
 * at the MCP authorization server, with `resource` naming the MCP server (RFC 8707). The client
 * listens on a loopback port for the redirect that carries the code (RFC 8252 § 7.3); the browser
 * logs in, consents, and is sent there.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { close } from "./authorization-servers.js";
import { MCP_CLIENT_ID, MCP_CLIENT_REDIRECT, MCP_SCOPE } from "./mcp-authorization-server.js";
import type { UserAgent } from "./user-agent.js";

/** A loopback listener for one redirect: its URI, and the query the redirect brought. */
async function awaitRedirect(): Promise<{
  redirectUri: string;
  query: Promise<URLSearchParams>;
  close(): Promise<void>;
}> {
  let received: (query: URLSearchParams) => void = () => {};
  const query = new Promise<URLSearchParams>((resolve) => {
    received = resolve;
  });
  const path = new URL(MCP_CLIENT_REDIRECT).pathname;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== path) {
      res.writeHead(404).end();
      return;
    }
    received(url.searchParams);
    res
      .writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
      .end("<!doctype html><title>Signed in</title><body><p>Signed in. You can close this window.</p></body>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { redirectUri: `http://127.0.0.1:${port}${path}`, query, close: () => close(server) };
}

export async function signInForMcp(
  browser: UserAgent,
  options: { issuer: string; resource: string; login: string; say(line: string): void },
): Promise<string> {
  const { issuer, resource, login, say } = options;
  const metadata = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as {
    authorization_endpoint: string;
    token_endpoint: string;
  };
  const verifier = randomBytes(32).toString("base64url");
  const state = randomBytes(16).toString("base64url");
  const redirect = await awaitRedirect();
  try {
    const authorize = new URL(metadata.authorization_endpoint);
    authorize.search = new URLSearchParams({
      response_type: "code",
      client_id: MCP_CLIENT_ID,
      redirect_uri: redirect.redirectUri,
      scope: MCP_SCOPE,
      resource,
      state,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
    }).toString();
    say(`client   signing in: sending the browser to ${authorize.origin}${authorize.pathname} (code + PKCE)`);
    const landing = await browser.signIn(authorize.href, login);
    const back = await Promise.race([redirect.query, new Promise<undefined>((resolve) => setTimeout(resolve, 0))]);
    const code = back?.get("code");
    if (back?.get("state") !== state || code === undefined || code === null) {
      throw new Error(`The sign-in did not return a code (HTTP ${landing.status} at ${new URL(landing.url).pathname})`);
    }
    const response = await fetch(metadata.token_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        client_id: MCP_CLIENT_ID,
        code,
        redirect_uri: redirect.redirectUri,
        code_verifier: verifier,
        resource,
      }),
    });
    const body = (await response.json()) as { access_token?: string; error?: string };
    if (body.access_token === undefined) throw new Error(`The token request failed: ${body.error ?? response.status}`);
    say(`client   got an MCP access token for ${login} (a JWT for ${resource}; not shown)`);
    return body.access_token;
  } finally {
    await redirect.close();
  }
}
