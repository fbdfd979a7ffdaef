/**
 * The web side of hand-offs (`mcp-handoff/connect`): the connect pages (`createConnectHandler`) and the
 * credentials they obtain for tool handlers (`CredentialBroker`, `withCredentials`, `ctx.credentials`),
 * and the page templates any hand-off page renders through (`createPageTheme`, `renderPage`).
 * @module mcp-handoff/connect
 */
export { CredentialBroker, type CredentialBrokerOptions, withCredentials } from "./broker.js";
export { DEFAULT_MAX_REDIRECTS } from "./credential-fetch.js";
export type { SecretDestination } from "./destination.js";
export { type ConnectHandlerOptions, createConnectHandler } from "./handler.js";
export { inboxUrlFor } from "./inbox-page.js";
export {
  createLocalConnectHandler,
  isLoopbackHost,
  type LocalConnect,
  type LocalConnectHandlerOptions,
  type LocalConnectOptions,
  LocalCredentials,
  type LocalCredentialsOptions,
  startLocalConnect,
} from "./local/index.js";
export type { LoginConfig } from "./login.js";
export type { AuthorizationServerConfig } from "./oauth-server.js";
export { redirectUriFor } from "./provider-flow.js";
export type { ConnectPurpose } from "./purpose.js";
export { type GrantStateStore, MemoryGrantStateStore, type PendingGrant } from "./state-store.js";
export {
  type ConfirmPage,
  createPageTheme,
  type NoticeKind,
  type NoticePage,
  type PageAccount,
  type PageBranding,
  type PageCommon,
  type PageForm,
  type PageServerInfo,
  type PageSpec,
  type PageTheme,
  renderPage,
  type SecretPage,
} from "./templates/index.js";
