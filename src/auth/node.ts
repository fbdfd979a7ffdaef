/**
 * Bearer authentication for `node:http`, for use with `toNodeHandler`, which reads `req.auth`
 * by default. It shares `authenticate` with `withBearerAuth`, so both answer alike:
 *
 * ```ts
 * const auth = nodeBearerAuth(verifier, { resourceMetadataUrl });
 * const mcp = toNodeHandler(httpServer);
 * createServer(async (req, res) => {
 *   if (await auth(req, res)) await mcp(req, res);
 * });
 * ```
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthInfo } from "../model/identity.js";
import { authenticate, type BearerAuthOptions } from "./middleware.js";
import { assertScopes } from "./scopes.js";
import type { BearerVerifier } from "./verifier.js";

/**
 * Returns a check that verifies the request's bearer token. On success it sets `req.auth` and
 * resolves true; otherwise it writes the refusal (401, 400, 403, 503, 500 as `withBearerAuth`
 * does) and resolves false.
 */
export function nodeBearerAuth(
  verifier: BearerVerifier,
  options: BearerAuthOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  assertScopes(options.requiredScopes ?? [], "requiredScopes");
  return async (req, res) => {
    const header = req.headers.authorization;
    const result = await authenticate(header ?? null, verifier, options);
    if (!(result instanceof Response)) {
      (req as IncomingMessage & { auth?: AuthInfo }).auth = result;
      return true;
    }
    const headers: Record<string, string> = {};
    result.headers.forEach((value, name) => {
      headers[name] = value;
    });
    res.writeHead(result.status, headers).end(await result.text());
    return false;
  };
}
