/** The generated part of docs/providers.md: a table of every preset's facts, then each fact's note and source. */
import type { Fact, ProviderFacts } from "../../../src/connect/index.js";

export const BEGIN = "<!-- presets:begin (generated from the presets' facts by test/connect/presets/facts.test.ts) -->";
export const END = "<!-- presets:end -->";

const delimiter = (value: string) => (value === " " ? "space" : value === "," ? "comma" : value);
const words = (value: string) => value.replace(/-/g, " ");

function endpoints(facts: ProviderFacts): string {
  const value = facts.endpoints.value;
  if (value.discovery) return `discovered at \`${value.issuer}\``;
  return `stated: \`${value.authorization}\`, \`${value.token}\``;
}

function revocation(facts: ProviderFacts): string {
  const value = facts.revocation.value;
  if (value.kind === "rfc7009") return `RFC 7009 at \`${value.endpoint}\``;
  if (value.kind === "provider-specific") return "provider-specific, not RFC 7009";
  return words(value.kind);
}

const FACTS = ["endpoints", "scopes", "iss", "pkce", "refresh", "revocation", "tokenEndpointAuth", "apiHosts"] as const;

/** Renders the generated section for `presets` (preset name → facts). */
export function providersTable(presets: Readonly<Record<string, ProviderFacts>>): string {
  const lines = [
    BEGIN,
    "",
    "| Preset | Endpoints | Scopes (request / granted) | `iss` | PKCE | Refresh | Revocation | Token endpoint auth | API hosts |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const [name, facts] of Object.entries(presets)) {
    const { request, granted } = facts.scopes.value;
    const hosts = facts.apiHosts.value.map((host) => `\`${host}\``).join(", ") || "none until listed";
    lines.push(
      `| \`${name}()\` (${facts.name}) | ${endpoints(facts)} | ${delimiter(request)} / ${delimiter(granted)} | ${words(facts.iss.value)} | ${words(facts.pkce.value)} | ${words(facts.refresh.value)} | ${revocation(facts)} | \`${facts.tokenEndpointAuth.value}\` | ${hosts} |`,
    );
  }
  for (const [name, facts] of Object.entries(presets)) {
    lines.push("", `### ${facts.name} (\`${name}()\`)`, "");
    for (const key of FACTS) {
      const fact: Fact<unknown> = facts[key];
      const how =
        facts.revocation.value.kind === "provider-specific" && key === "revocation"
          ? ` ${facts.revocation.value.how}.`
          : "";
      lines.push(`- **${key}**:${how}${fact.note === undefined ? "" : ` ${fact.note}`} Source: <${fact.source}>`);
    }
  }
  lines.push("", END);
  return lines.join("\n");
}
