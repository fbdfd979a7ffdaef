/**
 * What the demo's authorization servers hand out that must stay secret: every token a token
 * endpoint answers with (access, refresh and ID tokens) and every authorization code and `state`
 * a redirect carries. The demo's checks look for each of them where none may appear (its printed
 * lines, its audit log).
 */
import type Provider from "oidc-provider";

const TOKEN_FIELDS = ["access_token", "refresh_token", "id_token"] as const;
const REDIRECT_PARAMS = ["code", "state"] as const;

/**
 * A hook for `startProvider` (installed before the provider serves anything) that adds each value
 * issued to `into`.
 */
export function collectIssuedSecrets(into: Set<string>): (provider: Provider) => void {
  return (provider) => {
    provider.use(async (ctx, next) => {
      await next();
      const body = ctx.body;
      if (typeof body === "object" && body !== null) {
        for (const field of TOKEN_FIELDS) {
          const value = (body as Record<string, unknown>)[field];
          if (typeof value === "string" && value !== "") into.add(value);
        }
      }
      const location = ctx.response.get("location");
      if (location && URL.canParse(location)) {
        const params = new URL(location).searchParams;
        for (const name of REDIRECT_PARAMS) {
          const value = params.get(name);
          if (value !== null && value !== "") into.add(value);
        }
      }
    });
  };
}
