/**
 * Provider presets: for each well-known authorization server, a function returning the
 * `AuthorizationServerConfig` the connect flow reads, and the facts it was made from (endpoints,
 * scope syntax, `iss`, PKCE, refresh, revocation, API hosts), each with its public source.
 * `docs/providers.md` tabulates them.
 */
import { atlassianFacts } from "./atlassian.js";
import type { ProviderFacts } from "./facts.js";
import { githubFacts } from "./github.js";
import { gitlabFacts } from "./gitlab.js";
import { googleFacts } from "./google.js";
import { microsoftFacts } from "./microsoft.js";
import { notionFacts } from "./notion.js";
import { oidcFacts } from "./oidc.js";
import { slackFacts } from "./slack.js";

export { atlassian, atlassianFacts } from "./atlassian.js";
export type {
  EndpointsFact,
  Fact,
  IssFact,
  PkceFact,
  PresetOptions,
  ProviderFacts,
  RefreshFact,
  RevocationFact,
  ScopeSyntax,
} from "./facts.js";
export { isBareHost } from "./facts.js";
export { github, githubFacts } from "./github.js";
export { gitlab, gitlabFacts } from "./gitlab.js";
export { google, googleFacts } from "./google.js";
export { microsoft, microsoftFacts } from "./microsoft.js";
export { notion, notionFacts } from "./notion.js";
export { oidc, oidcFacts } from "./oidc.js";
export { slack, slackFacts } from "./slack.js";

/** The facts of every preset, by preset name; Entra's and generic OIDC's with their `{tenant}` and `{issuer}` left as placeholders. */
export const presetFacts: Readonly<Record<string, ProviderFacts>> = {
  github: githubFacts,
  google: googleFacts,
  microsoft: microsoftFacts(),
  slack: slackFacts,
  gitlab: gitlabFacts(),
  atlassian: atlassianFacts,
  notion: notionFacts,
  oidc: oidcFacts(),
};
