/**
 * Only `src/revisions` knows which protocol revision is on the wire (docs/architecture.md).
 * These checks read the source so that a shortcut around that rule fails here, not in review.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "../../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const outsideRevisions = sourceFiles(SRC)
  .map((path) => ({ path: relative(SRC, path), text: readFileSync(path, "utf8") }))
  .filter((file) => !file.path.startsWith("revisions/"));

function imports(text: string): string[] {
  return [...text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1] ?? "");
}

/** The lines of `text` that are code: comment lines are left out, with their line index. */
function codeLines(text: string): { line: string; index: number }[] {
  return text
    .split("\n")
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => !/^\s*(\*|\/\/|\/\*)/.test(line));
}

/** A name that holds one protocol version: `version`, `protocolVersion`, `negotiatedVersion`, ... (not `versions`). */
const VERSION = String.raw`[\w.#]*\b\w*[vV]ersion\b`;

/**
 * Each way of branching on a protocol version outside its codec, by name. Comparing a version to
 * undefined or null, or checking it is a string, is not branching on which version it is.
 */
const VERSION_RULES: readonly { name: string; pattern: RegExp }[] = [
  // A revision date or the start of one ("2026", "2025-11"), in a string, a template or a regex.
  {
    name: "names a revision",
    pattern: /["'`/^](202[4-9]|20[3-9]\d)(-\d\d){0,2}-?["'`/]|\b(202[4-9]|20[3-9]\d)-\d\d\b/,
  },
  {
    name: "compares a protocol version",
    pattern: /[pP]rotocolVersion\w*\)?\s+(===|!==|==|!=|<=|>=|<|>)(?!=|\s*(undefined|null)\b)/,
  },
  { name: "compares to a protocol version", pattern: /(===|!==|==|!=|<=|>=|<|>)\s+[\w.#]*[pP]rotocolVersion\b/ },
  {
    name: "compares a version to a literal or a constant",
    pattern: new RegExp(
      String.raw`${VERSION}\s*(===|!==|==|!=)\s*(["'\x60]|[A-Z][A-Z0-9_]+\b)|(["'\x60]|\b[A-Z][A-Z0-9_]+)\s*(===|!==|==|!=)\s*${VERSION}`,
    ),
  },
  // Biome puts spaces around binary operators and none inside type arguments.
  {
    name: "orders versions",
    pattern: new RegExp(String.raw`${VERSION}\)?\s+(<=|>=|<|>)\s|\s(<=|>=|<|>)\s+${VERSION}`),
  },
  {
    name: "takes a version apart",
    pattern: new RegExp(
      String.raw`${VERSION}\)?\??\.(startsWith|endsWith|slice|substring|substr|split|localeCompare|match|search|includes|indexOf|charAt|charCodeAt|at|replace)\s*\(`,
    ),
  },
  { name: "switches on a version", pattern: new RegExp(String.raw`\bswitch\s*\([^)]*${VERSION}`) },
  {
    name: "looks a version up in the codec's lists",
    pattern: /\b(STATEFUL_VERSIONS|STATELESS_VERSIONS|SUPPORTED_VERSIONS)\s*\.\s*(includes|indexOf|find|some)\b/,
  },
];

/** The rule `line` breaks, if any. */
function branchesOnVersion(line: string): string | undefined {
  // `typeof version === "string"` asks for a type, not a revision; the rest of the line still counts.
  const code = line.replace(/\btypeof\s+[\w.#?]+\s*(===|!==|==|!=)\s*["'`]\w+["'`]/g, "typeof");
  return VERSION_RULES.find((rule) => rule.pattern.test(code))?.name;
}

/** Lines that look like a version check but are not a protocol version. */
const ALLOWED: readonly { file: string; line: RegExp; why: string }[] = [
  { file: "stores/sqlite.ts", line: /row\.version > version/, why: "the database schema's own version number" },
];

describe("layering", () => {
  it("has source files to check", () => {
    expect(outsideRevisions.length).toBeGreaterThan(20);
  });

  it("reaches the revision codecs only through src/revisions/index.ts", () => {
    const offenders = outsideRevisions.flatMap((file) =>
      imports(file.text)
        .filter((spec) => /\/revisions\//.test(spec) && !/\/revisions\/index\.js$/.test(spec))
        .map((spec) => `${file.path} imports ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it("never names, compares, orders, slices or switches on a protocol version outside src/revisions", () => {
    const offenders = outsideRevisions.flatMap((file) =>
      codeLines(file.text)
        .filter(({ line }) => !ALLOWED.some((allowed) => allowed.file === file.path && allowed.line.test(line)))
        .filter(({ line }) => branchesOnVersion(line) !== undefined)
        .map(({ index, line }) => `${file.path}:${index + 1}: ${branchesOnVersion(line)}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });

  it("the version check itself catches the usual ways of branching on a version", () => {
    const caught = [
      'if (version === "2026-07-28") return stateless();',
      'if (version >= "2025") return modern();',
      'if (meta.protocolVersion.startsWith("2026")) return modern();',
      "const modern = version.slice(0, 4) > year;",
      "switch (protocolVersion) {",
      "switch (this.negotiatedVersion) {",
      'case "2025-11-25":',
      "if (/^2026/.test(header)) return modern();",
      "if (protocolVersion === LATEST_PROTOCOL_VERSION) return modern();",
      "if (request.protocolVersion !== other) return old();",
      "if (version < negotiatedVersion) return old();",
      "if (STATELESS_VERSIONS.includes(header)) return modern();",
      "const order = protocolVersion.localeCompare(other);",
      'if (typeof version === "string" && version.startsWith(prefix)) return modern();',
    ];
    const allowed = [
      'if (typeof protocolVersion !== "string") throw refusal;',
      "if (this.protocolVersion !== undefined) return;",
      "if (!this.versions.includes(version)) return httpError(400);",
      'const draft = uri.includes("2019-09") ? "2019" : "2020";',
      "const timeoutMs = 2_048;",
      "const items: Map<string, ProtocolVersion> = new Map();",
      "const run = (version) => serve(version);",
    ];
    expect(caught.filter((line) => branchesOnVersion(line) === undefined)).toEqual([]);
    expect(allowed.filter((line) => branchesOnVersion(line) !== undefined)).toEqual([]);
  });

  it("keeps imports one way: jsonrpc and transports never import server, client or cli", () => {
    const lower = outsideRevisions.filter((file) => /^(jsonrpc|transports)\//.test(file.path));
    const offenders = lower.flatMap((file) =>
      imports(file.text)
        .filter((spec) => /\/(server|client|cli)\//.test(spec))
        .map((spec) => `${file.path} imports ${spec}`),
    );
    expect(offenders).toEqual([]);
  });
});
