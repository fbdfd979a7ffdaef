/**
 * Which client identity to use at an authorization server (spec 2025-11-25: basic/authorization
 * § Client Registration Approaches), in the spec's order of preference: credentials registered
 * beforehand for that issuer, a client ID metadata document (its HTTPS URL as `client_id`) when
 * the server supports them, else dynamic client registration (RFC 7591). Credentials are bound
 * to the issuer that issued them and never offered to another one.
 */
import * as oauth from "oauth4webapi";
import { requestOptions } from "./discovery.js";
import { LoginError } from "./errors.js";

/** A client known to one authorization server. `clientSecret` makes it a confidential client. */
export interface ClientCredentials {
  clientId: string;
  clientSecret?: string;
  /**
   * `none`, `client_secret_basic` or `client_secret_post`. Default: what registration answered, else
   * `client_secret_basic` (or `_post` when the server lists only that) with a secret, `none` without.
   */
  tokenEndpointAuthMethod?: string;
}

/** A client registered beforehand; without `issuer` it is used at whatever server the resource names. */
export interface PreRegisteredClient extends ClientCredentials {
  issuer?: string;
}

/** How the client may identify itself. */
export interface ClientIdentityOptions {
  /** Clients registered beforehand; the one for the server's issuer (or without issuer) wins. */
  clients?: readonly PreRegisteredClient[];
  /** The HTTPS URL of this client's metadata document, used where `client_id_metadata_document_supported`. */
  clientMetadataUrl?: string;
  /** `client_name` for dynamic registration. Default `"handoff"`. */
  clientName?: string;
  signal?: AbortSignal;
}

/**
 * The credentials to use at `as` with `redirectUri`.
 * @throws LoginError "registration" when nothing applies (no client for the issuer, no metadata
 *   document support, no registration endpoint) or the registration was refused.
 */
export async function clientFor(
  as: oauth.AuthorizationServer,
  redirectUri: string,
  options: ClientIdentityOptions,
): Promise<ClientCredentials> {
  const known =
    options.clients?.find((client) => client.issuer === as.issuer) ??
    options.clients?.find((client) => client.issuer === undefined);
  if (known !== undefined) {
    const { issuer: _issuer, ...credentials } = known;
    return credentials;
  }
  if (options.clientMetadataUrl !== undefined && as.client_id_metadata_document_supported === true) {
    return { clientId: options.clientMetadataUrl, tokenEndpointAuthMethod: "none" };
  }
  if (as.registration_endpoint === undefined) {
    throw new LoginError(
      "registration",
      `${as.issuer} offers no dynamic client registration; give the client id registered there`,
    );
  }
  try {
    const response = await oauth.dynamicClientRegistrationRequest(
      as,
      {
        client_name: options.clientName ?? "handoff",
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        application_type: "native",
      },
      { ...requestOptions(new URL(as.issuer)), ...(options.signal === undefined ? {} : { signal: options.signal }) },
    );
    const client = await oauth.processDynamicClientRegistrationResponse(await withSecretExpiry(response));
    return {
      clientId: client.client_id,
      ...(typeof client.client_secret === "string" ? { clientSecret: client.client_secret } : {}),
      ...(typeof client.token_endpoint_auth_method === "string"
        ? { tokenEndpointAuthMethod: client.token_endpoint_auth_method }
        : {}),
    };
  } catch (error) {
    throw new LoginError("registration", `${as.issuer} refused to register this client`, { cause: error });
  }
}

/**
 * RFC 7591 § 3.2.1 requires `client_secret_expires_at` beside a `client_secret`, and many servers
 * leave it out; such an answer is read as the RFC's 0, "does not expire", and checked as usual.
 */
async function withSecretExpiry(response: Response): Promise<Response> {
  if (response.status !== 201) return response;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  if (typeof body !== "object" || body === null || Array.isArray(body)) return response;
  const fields = body as Record<string, unknown>;
  if (typeof fields.client_secret !== "string" || fields.client_secret_expires_at !== undefined) return response;
  return new Response(JSON.stringify({ ...fields, client_secret_expires_at: 0 }), {
    status: response.status,
    headers: response.headers,
  });
}

/**
 * The `oauth4webapi` client and its token endpoint authentication (RFC 6749 § 2.3).
 * @throws LoginError "registration" for a method this client cannot do (e.g. `private_key_jwt`)
 *   or a secret method without a secret.
 */
export function clientAuthentication(
  as: oauth.AuthorizationServer,
  credentials: ClientCredentials,
): { client: oauth.Client; auth: oauth.ClientAuth } {
  const method = credentials.tokenEndpointAuthMethod ?? defaultMethod(as, credentials);
  const client: oauth.Client = { client_id: credentials.clientId, token_endpoint_auth_method: method };
  if (method === "none") return { client, auth: oauth.None() };
  const secret = credentials.clientSecret;
  if (secret === undefined) {
    throw new LoginError("registration", `The client needs a secret for ${method} at ${as.issuer}`);
  }
  if (method === "client_secret_basic") return { client, auth: clientSecretBasic(secret) };
  if (method === "client_secret_post") return { client, auth: oauth.ClientSecretPost(secret) };
  throw new LoginError("registration", `Token endpoint authentication ${method} is not supported`);
}

/**
 * `client_secret_basic` (RFC 6749 § 2.3.1) with the WHATWG form encoding, which leaves `-`, `.`,
 * `_` and `*` as they are: the same for servers that decode the credentials as the RFC says, and
 * also right for the many that compare them undecoded.
 */
function clientSecretBasic(secret: string): oauth.ClientAuth {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return (_as, client, _body, headers) => {
    headers.set("authorization", `Basic ${btoa(`${encode(client.client_id)}:${encode(secret)}`)}`);
  };
}

function defaultMethod(as: oauth.AuthorizationServer, credentials: ClientCredentials): string {
  if (credentials.clientSecret === undefined) return "none";
  const supported = as.token_endpoint_auth_methods_supported;
  // RFC 8414 § 2: an absent list means client_secret_basic.
  if (supported === undefined || supported.includes("client_secret_basic")) return "client_secret_basic";
  if (supported.includes("client_secret_post")) return "client_secret_post";
  return supported.includes("none") ? "none" : "client_secret_basic";
}
