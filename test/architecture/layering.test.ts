/**
 * Only `src/revisions` knows which protocol revision is on the wire, and imports run one way down
 * the floors that docs/architecture.md draws (docs/architecture.md). These checks read the source
 * so that a shortcut around those rules fails here, not in review.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  eraOffenders,
  floorOffenders,
  floorsOf,
  folderOf,
  type ImportEdge,
  importCycles,
  importEdges,
  readSources,
  type SourceFile,
} from "./support.js";

const sources = readSources();

const outsideRevisions = sources.filter((file) => !file.path.startsWith("revisions/"));

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
  {
    file: "connect/presets/github.ts",
    line: /github\.blog\/changelog\//,
    why: "a dated changelog page, the source of a fact",
  },
  {
    file: "connect/presets/slack.ts",
    line: /docs\.slack\.dev\/changelog\//,
    why: "a dated changelog page, the source of a fact",
  },
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

const DOC = readFileSync(join(import.meta.dirname, "../../docs/architecture.md"), "utf8");
const FLOORS = floorsOf(DOC);
const edges = importEdges(sources);

/** The graph of `files` alone: each is a file of `src/` (path relative to it) with its text. */
const graphOf = (...files: SourceFile[]): ImportEdge[] => importEdges(files);
/** The real graph with `files` added. */
const realGraphWith = (...files: SourceFile[]): ImportEdge[] => [...edges, ...importEdges(files)];

describe("floors", () => {
  it("reads the floors docs/architecture.md draws, model on the ground, and every folder of src is on one", () => {
    expect(FLOORS[0]).toEqual(["model"]);
    expect(FLOORS.length).toBeGreaterThan(5);
    const placed = new Set(FLOORS.flat());
    const folders = new Set(sources.filter((file) => file.path.includes("/")).map((file) => folderOf(file.path)));
    expect([...folders].filter((folder) => !placed.has(folder))).toEqual([]);
  });

  it("has imports to check", () => {
    expect(edges.length).toBeGreaterThan(500);
  });

  it("every import between folders runs down a floor", () => {
    expect(floorOffenders(edges, FLOORS)).toEqual([]);
  });

  it("trips on an import up a floor, across one floor, into the package face, and from an unplaced folder", () => {
    const offenders = floorOffenders(
      graphOf(
        { path: "jsonrpc/session.ts", text: 'import type { McpServer } from "../server/server.js";' },
        { path: "server/session.ts", text: 'import { McpClient } from "../client/client.js";' },
        { path: "transports/memory.ts", text: 'export type { Transport } from "../index.js";' },
        { path: "fleet/pool.ts", text: 'import { JsonRpcSession } from "../jsonrpc/session.js";' },
      ),
      FLOORS,
    );
    expect(offenders).toEqual([
      "jsonrpc/session.ts:1 imports server/server.ts: floor 2 imports floor 5",
      "server/session.ts:1 imports client/client.ts: floor 5 imports floor 5",
      "transports/memory.ts:1 imports index.ts: floor 4 imports floor 8",
      "fleet/pool.ts:1 imports jsonrpc/session.ts: src/fleet is on no floor of docs/architecture.md",
    ]);
  });

  it("lets an import down a floor, inside a folder, or from the package face pass", () => {
    const offenders = floorOffenders(
      graphOf(
        { path: "server/session.ts", text: 'import type { UserRef } from "../model/identity.js";' },
        { path: "server/context.ts", text: 'import { ServerConnection } from "./session.js";' },
        { path: "index.ts", text: 'export * from "./connect/index.js";' },
      ),
      FLOORS,
    );
    expect(offenders).toEqual([]);
  });

  it("reads every way of naming a file: type imports, export-from, import() and import types, not strings or comments", () => {
    const found = graphOf({
      path: "cli/all.ts",
      text: [
        'import type { A } from "../model/identity.js";',
        'export * from "../jsonrpc/errors.js";',
        'const lazy = () => import("../client/index.js");',
        'type T = import("../server/index.js").McpServer;',
        '// import { B } from "../connect/index.js";',
        'const text = `import { C } from "../auth/index.js";`;',
        'import { readFileSync } from "node:fs";',
      ].join("\n"),
    }).map((edge) => `${edge.line} ${edge.to} ${edge.names.join(",")}`);
    expect(found).toEqual([
      "1 model/identity.ts A",
      "2 jsonrpc/errors.ts *",
      "3 client/index.ts *",
      "4 server/index.ts McpServer",
    ]);
  });
});

describe("import cycles", () => {
  const cycles = importCycles(edges);

  it("no files of src import each other in a circle", () => {
    expect(cycles).toEqual([]);
  });

  it("trips on a cycle of two files, of three, and on a file importing itself", () => {
    const found = importCycles(
      graphOf(
        { path: "revisions/a.ts", text: 'import type { B } from "./b.js";' },
        { path: "revisions/b.ts", text: 'export { A } from "./a.js";' },
        { path: "server/x.ts", text: 'import { y } from "./y.js";' },
        { path: "server/y.ts", text: 'import { z } from "./z.js";' },
        { path: "server/z.ts", text: 'import type { X } from "./x.js";\nimport { w } from "./w.js";' },
        { path: "server/w.ts", text: 'import { JsonRpcSession } from "../jsonrpc/session.js";' },
        { path: "cli/self.ts", text: 'const again = () => import("./self.js");' },
      ),
    );
    expect(found).toEqual([
      ["cli/self.ts"],
      ["revisions/a.ts", "revisions/b.ts"],
      ["server/x.ts", "server/y.ts", "server/z.ts"],
    ]);
  });

  it("trips on a new cycle in the real tree", () => {
    const found = importCycles(
      realGraphWith(
        {
          path: "model/ring.ts",
          text: 'import type { UserRef } from "./identity.js";\nexport type { Ring } from "./ring-b.js";',
        },
        { path: "model/ring-b.ts", text: 'import type { X } from "./ring.js";' },
      ),
    );
    expect(found).toEqual([["model/ring-b.ts", "model/ring.ts"]]);
  });
});

describe("the stateless era stays in src/revisions and the era drivers", () => {
  it("counts the stateless names src/revisions/index.ts hands on", () => {
    const offenders = eraOffenders(
      realGraphWith({
        path: "cli/era.ts",
        text: 'import { isStatelessRequest, negotiateVersion } from "../revisions/index.js";',
      }),
    );
    expect(offenders.filter((offender) => offender.startsWith("cli/era.ts"))).toEqual([
      "cli/era.ts:1 takes isStatelessRequest from revisions/index.ts",
    ]);
  });

  it("no stateless-era name is imported outside src/revisions and an eras/ folder", () => {
    expect(eraOffenders(edges)).toEqual([]);
  });

  it("trips on a stateless name taken through a barrel, straight from src/revisions/stateless, or handed on", () => {
    const graph = graphOf(
      { path: "revisions/stateless/meta.ts", text: "export function isStatelessRequest() {}" },
      { path: "revisions/stateless/index.ts", text: 'export { isStatelessRequest as isModern } from "./meta.js";' },
      {
        path: "revisions/index.ts",
        text: 'export * from "./stateless/index.js";\nexport { negotiateVersion } from "./negotiate.js";',
      },
      { path: "server/session.ts", text: 'import { isModern, negotiateVersion } from "../revisions/index.js";' },
      { path: "client/connection.ts", text: 'import type { X } from "../revisions/stateless/meta.js";' },
      { path: "transports/http/index.ts", text: 'export { isModern } from "../../revisions/index.js";' },
      { path: "cli/all.ts", text: 'import * as revisions from "../revisions/index.js";' },
    );
    expect(eraOffenders(graph)).toEqual([
      "server/session.ts:1 takes isModern from revisions/index.ts",
      "client/connection.ts:1 takes X from revisions/stateless/meta.ts",
      "transports/http/index.ts:1 takes isModern from revisions/index.ts",
      "cli/all.ts:1 takes * from revisions/index.ts",
    ]);
  });

  it("lets the era drivers, src/revisions and the other names pass", () => {
    const graph = graphOf(
      { path: "revisions/stateless/meta.ts", text: "export function isStatelessRequest() {}" },
      {
        path: "revisions/index.ts",
        text: 'export * from "./stateless/meta.js";\nexport { negotiateVersion } from "./negotiate.js";',
      },
      { path: "server/eras/stateless.ts", text: 'import { isStatelessRequest } from "../../revisions/index.js";' },
      { path: "client/eras/stateless.ts", text: 'import type { X } from "../../revisions/stateless/meta.js";' },
      {
        path: "transports/http/eras/stateless.ts",
        text: `import { isStatelessRequest } from "${"../".repeat(3)}revisions/index.js";`,
      },
      { path: "revisions/stateful/gate.ts", text: 'import { isStatelessRequest } from "../stateless/meta.js";' },
      { path: "server/session.ts", text: 'import { negotiateVersion } from "../revisions/index.js";' },
      { path: "index.ts", text: 'export type * from "./revisions/index.js";' },
    );
    expect(eraOffenders(graph)).toEqual([]);
  });
});
