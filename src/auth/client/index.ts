/**
 * MCP authorization, client side: logging in as a native client (authorization code + PKCE,
 * loopback redirect) and the access token to send afterwards, refreshed when it expires.
 */
export { discoverAuthorizationServer, discoverResource, type ResourceAuthorization } from "./discovery.js";
export { LoginError, type LoginFailure } from "./errors.js";
export { DEFAULT_LOGIN_TIMEOUT_MS, type LoginOptions, login } from "./login.js";
export { type LoopbackRedirect, startLoopbackRedirect } from "./loopback.js";
export { defaultTokenFile, FileTokenStore, type StoredToken, type TokenStore } from "./token-store.js";
export { type AccessTokenOptions, accessTokenFor, EXPIRY_MARGIN_MS, refresh } from "./tokens.js";
