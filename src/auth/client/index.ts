/**
 * MCP authorization, client side: logging in as a native client (authorization code + PKCE,
 * loopback redirect) and the access token to send afterwards, refreshed when it expires; and
 * `McpAuthorization`, which does all of it by itself when an MCP server answers 401 or 403.
 */
export {
  type AuthorizationCodeOptions,
  authorizationCodeGrant,
  refreshTokenGrant,
} from "./authorization-code.js";
export {
  challengeParameter,
  discoverAuthorizationServer,
  discoverResource,
  type ResourceAuthorization,
  resourceFromChallenge,
} from "./discovery.js";
export { LoginError, type LoginFailure } from "./errors.js";
export { DEFAULT_LOGIN_TIMEOUT_MS, type LoginOptions, login } from "./login.js";
export { type LoopbackRedirect, startLoopbackRedirect } from "./loopback.js";
export {
  DEFAULT_AUTHORIZATION_TIMEOUT_MS,
  McpAuthorization,
  type McpAuthorizationOptions,
} from "./provider.js";
export {
  type ClientCredentials,
  type ClientIdentityOptions,
  clientAuthentication,
  clientFor,
  type PreRegisteredClient,
} from "./registration.js";
export {
  defaultTokenFile,
  FileTokenStore,
  MemoryTokenStore,
  type StoredToken,
  type TokenStore,
} from "./token-store.js";
export { type AccessTokenOptions, accessTokenFor, EXPIRY_MARGIN_MS, refresh } from "./tokens.js";
export {
  type AuthorizationAttempt,
  type AuthorizationUserAgent,
  type AuthorizeContext,
  loopbackUserAgent,
  redirectFollowingUserAgent,
} from "./user-agent.js";
