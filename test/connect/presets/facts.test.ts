/**
 * Every preset states every fact, each with an https source; its API hosts are bare lowercase
 * host names; its config is what its facts say; and docs/providers.md shows exactly these facts
 * (set MCP_HANDOFF_UPDATE_DOCS=1 to write the generated section again).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  type AuthorizationServerConfig,
  atlassian,
  github,
  gitlab,
  google,
  isBareHost,
  microsoft,
  notion,
  oidc,
  presetFacts,
  slack,
} from "../../../src/connect/index.js";
import { BEGIN, END, providersTable } from "./providers-table.js";

const CLIENT = { clientId: "client", clientSecret: "secret" };
const configs: Record<string, AuthorizationServerConfig> = {
  github: github(CLIENT),
  google: google(CLIENT),
  microsoft: microsoft({ ...CLIENT, tenant: "common" }),
  slack: slack(CLIENT),
  gitlab: gitlab(CLIENT),
  atlassian: atlassian(CLIENT),
  notion: notion(CLIENT),
  oidc: oidc({ ...CLIENT, issuer: "https://id.example" }),
};
const FACTS = ["endpoints", "scopes", "iss", "pkce", "refresh", "revocation", "tokenEndpointAuth", "apiHosts"] as const;

/** Every value inside `value`, however deep, so that an `undefined` anywhere is found. */
function leaves(value: unknown): unknown[] {
  if (typeof value !== "object" || value === null) return [value];
  return Object.values(value).flatMap(leaves);
}

describe("presets: their facts", () => {
  it("there is a preset for each provider the docs promise", () => {
    expect(Object.keys(presetFacts)).toEqual([
      "github",
      "google",
      "microsoft",
      "slack",
      "gitlab",
      "atlassian",
      "notion",
      "oidc",
    ]);
  });

  for (const [name, facts] of Object.entries(presetFacts)) {
    it(`${name}: every fact is stated, nothing undefined, each with an https source`, () => {
      for (const key of FACTS) {
        const fact = facts[key];
        expect(fact, `${name}.${key}`).toBeDefined();
        expect(leaves(fact.value), `${name}.${key}`).not.toContain(undefined);
        expect(new URL(fact.source).protocol, `${name}.${key}.source`).toBe("https:");
      }
      expect(facts.name).toBeTruthy();
    });

    it(`${name}: its API hosts are bare lowercase host names, and its config sends tokens to those alone`, () => {
      for (const host of facts.apiHosts.value) {
        expect(isBareHost(host), host).toBe(true);
        expect(host).toBe(host.toLowerCase());
        expect(host).not.toMatch(/[/:]/);
      }
      expect(configs[name]?.apiHosts).toEqual(facts.apiHosts.value);
    });

    it(`${name}: the config follows the facts (endpoints, iss, scope delimiters, client authentication)`, () => {
      const config = configs[name];
      if (config === undefined) throw new Error(`no config for ${name}`);
      const endpoints = facts.endpoints.value;
      expect(config.metadata === undefined).toBe(endpoints.discovery);
      expect(config.requireIss === true).toBe(facts.iss.value === "sent");
      expect(config.metadata?.authorization_response_iss_parameter_supported ?? false).toBe(facts.iss.value === "sent");
      const { request, granted } = facts.scopes.value;
      expect(config.scopeDelimiter ?? "none").toBe(request === "none" ? "none" : request);
      expect(config.grantedScopeDelimiter ?? "none").toBe(granted === "none" ? "none" : granted);
      expect(config.tokenEndpointAuthMethod).toBe(facts.tokenEndpointAuth.value);
      const revocation = facts.revocation.value;
      if (revocation.kind !== "rfc7009") expect(config.metadata?.revocation_endpoint).toBeUndefined();
    });
  }

  it("an API host with a scheme, a path, upper case or port 443 is not a bare host name; one with another port is", () => {
    for (const bad of [
      "https://api.github.com",
      "api.github.com/",
      "API.github.com",
      "api.github.com:443",
      "",
      "a..b",
      "h:99999",
    ]) {
      expect(isBareHost(bad), bad).toBe(false);
    }
    expect(isBareHost("git.example.org:8443")).toBe(true);
    expect(() => github({ ...CLIENT, apiHosts: ["https://api.github.com"] })).toThrow(RangeError);
  });

  it("docs/providers.md shows exactly these facts", () => {
    const path = new URL("../../../docs/providers.md", import.meta.url);
    const doc = readFileSync(path, "utf8");
    const start = doc.indexOf(BEGIN);
    const end = doc.indexOf(END);
    expect(start, "the generated section's markers").toBeGreaterThanOrEqual(0);
    const generated = providersTable(presetFacts);
    const current = doc.slice(start, end + END.length);
    if (current !== generated && process.env.MCP_HANDOFF_UPDATE_DOCS === "1") {
      writeFileSync(path, doc.slice(0, start) + generated + doc.slice(end + END.length));
      return;
    }
    expect(current).toBe(generated);
  });
});
