/**
 * MCP authorization (`mcp-handoff/auth`), resource-server side and client login; spec 2025-11-25: basic/authorization.
 * @module mcp-handoff/auth
 */

export { sameUser, userOf } from "../model/identity.js";
export { bearerChallenge, type Challenge, challengeResponse } from "./challenge.js";
export * from "./client/index.js";
export { AuthorizationServerUnavailableError, type BearerErrorCode, BearerTokenError } from "./errors.js";
export type { IntrospectionOptions } from "./introspection.js";
export {
  type MetadataHandlerOptions,
  type ProtectedResourceMetadata,
  type ProtectedResourceMetadataOptions,
  protectedResourceMetadata,
  protectedResourceMetadataHandler,
  protectedResourceMetadataUrl,
} from "./metadata.js";
export { authenticate, type BearerAuthOptions, type WebHandler, withBearerAuth } from "./middleware.js";
export { nodeBearerAuth } from "./node.js";
export { type BearerVerifier, type BearerVerifierOptions, createBearerVerifier } from "./verifier.js";
