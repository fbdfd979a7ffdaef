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

  it("never names a protocol revision outside src/revisions", () => {
    const offenders = outsideRevisions.flatMap((file) =>
      file.text
        .split("\n")
        .map((line, index) => ({ line, index }))
        .filter(({ line }) => !/^\s*(\*|\/\/)/.test(line) && /["'`]20\d\d-\d\d-\d\d["'`]/.test(line))
        .map(({ index }) => `${file.path}:${index + 1}`),
    );
    expect(offenders).toEqual([]);
  });

  it("never compares or orders protocol versions outside src/revisions (the revision objects are asked)", () => {
    // Comparing a protocol version to anything but undefined or null, ordering versions, or looking
    // one up in the codec's version lists would be branching on the revision outside its codec.
    const compared = /[pP]rotocolVersion\w*\)?\s*(===|!==|==|!=|<=|>=|<|>)(?!=|\s*(undefined|null)\b)/;
    const comparedTo = /(===|!==|==|!=|<=|>=|<|>)\s*[\w.#]*[pP]rotocolVersion\b/;
    const lookedUp = /\b(STATEFUL_VERSIONS|STATELESS_VERSIONS|SUPPORTED_VERSIONS)\s*\.\s*(includes|indexOf|find)\b/;
    const ordered = /[pP]rotocolVersion\w*\s*\.\s*localeCompare\b/;
    const offenders = outsideRevisions.flatMap((file) =>
      file.text
        .split("\n")
        .map((line, index) => ({ line, index }))
        .filter(({ line }) => !/^\s*(\*|\/\/)/.test(line) && !/\btypeof\b/.test(line))
        .filter(({ line }) => [compared, comparedTo, lookedUp, ordered].some((pattern) => pattern.test(line)))
        .map(({ index, line }) => `${file.path}:${index + 1}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
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
