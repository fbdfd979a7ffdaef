/**
 * The connect pages' templates: `createPageTheme` once per handler (server name and icon, the
 * operator's branding), then `renderPage({ kind, theme, message, account, client, ... })` for each
 * page. Any handler that serves a hand-off page (the OIDC connect pages, a local server's page)
 * renders through these, so every page looks and reads alike and keeps the same CSP.
 */
export { escapeHtml } from "./escape.js";
export { NOTICES, type Notice, type NoticeKind } from "./notices.js";
export {
  type ConfirmPage,
  type EntriesPage,
  type EntryButton,
  type EntrySection,
  type NoticePage,
  type PageAccount,
  type PageCommon,
  type PageEntry,
  type PageForm,
  type PageSpec,
  renderPage,
  type SecretPage,
} from "./render.js";
export { contrastWithWhite, createPageTheme, type PageBranding, type PageServerInfo, type PageTheme } from "./theme.js";
