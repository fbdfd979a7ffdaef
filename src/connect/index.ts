/**
 * The web side of hand-offs (`mcp-handoff/connect`): the connect pages (`createConnectHandler`) and the
 * credentials they obtain for tool handlers (`CredentialBroker`, `withCredentials`, `ctx.credentials`),
 * the page templates any hand-off page renders through (`createPageTheme`, `renderPage`), and
 * provider presets (`github`, `google`, `microsoft`, `slack`, `gitlab`, `atlassian`, `notion`, `oidc`).
 * @module mcp-handoff/connect
 */
export { CredentialBroker, type CredentialBrokerOptions } from "./broker.js";
export { type ConnectionToolsOptions, registerConnectionTools } from "./connection-tools.js";
export {
  type Connection,
  type DisconnectedBy,
  type DisconnectResult,
  REVOKED_CHANNEL,
  type RevokedGrant,
} from "./connections.js";
export type { ConnectionsSource } from "./connections-page.js";
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
export type { AuthorizationServerConfig, AuthorizationServerMetadata, ScopeDelimiter } from "./oauth-server.js";
export {
  atlassian,
  atlassianFacts,
  type EndpointsFact,
  type Fact,
  github,
  githubFacts,
  gitlab,
  gitlabFacts,
  google,
  googleFacts,
  type IssFact,
  isBareHost,
  microsoft,
  microsoftFacts,
  notion,
  notionFacts,
  oidc,
  oidcFacts,
  type PkceFact,
  type PresetOptions,
  type ProviderFacts,
  presetFacts,
  type RefreshFact,
  type RevocationFact,
  type ScopeSyntax,
  slack,
  slackFacts,
} from "./presets/index.js";
export { redirectUriFor } from "./provider-flow.js";
export type { ConnectPurpose } from "./purpose.js";
export { type GrantStateStore, MemoryGrantStateStore, type PendingGrant } from "./state-store.js";
export {
  type ConfirmPage,
  createPageTheme,
  type EntriesPage,
  type EntryButton,
  type EntrySection,
  type NoticeKind,
  type NoticePage,
  type PageAccount,
  type PageBranding,
  type PageCommon,
  type PageEntry,
  type PageForm,
  type PageServerInfo,
  type PageSpec,
  type PageTheme,
  renderPage,
  type SecretPage,
} from "./templates/index.js";
export { withCredentials } from "./with-credentials.js";
