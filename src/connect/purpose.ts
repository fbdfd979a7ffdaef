/** What a connect page must do, read from an interaction's opaque `purpose`. */

export type ConnectPurpose =
  /** Access at a third party through OAuth (authorization code + PKCE). */
  | { kind: "oauth"; provider: string; scopes: string[] }
  /** A secret the user types in, such as an API key; `label` names it on the form. */
  | { kind: "secret"; provider: string; label: string };

export function readPurpose(purpose: Record<string, unknown> | undefined): ConnectPurpose | undefined {
  const provider = purpose?.provider;
  if (typeof provider !== "string" || provider === "") return undefined;
  if (purpose?.kind === "oauth") {
    const scopes = Array.isArray(purpose.scopes) ? purpose.scopes.filter((s) => typeof s === "string") : [];
    return { kind: "oauth", provider, scopes };
  }
  if (purpose?.kind === "secret") {
    return { kind: "secret", provider, label: typeof purpose.label === "string" ? purpose.label : "secret" };
  }
  return undefined;
}

/**
 * A secret's name as the user reads it: the label alone when it names the provider as a word
 * already ("Weather API key" for `weather`), else the provider's name before it ("forecast API
 * key"), so that neither is said twice.
 */
export function secretName(provider: string, label: string): string {
  const escaped = provider.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, "iu").test(label)
    ? label
    : `${provider} ${label}`;
}
