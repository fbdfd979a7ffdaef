/**
 * The import graph of `src/` and the three layering rules checked against it: the floors that
 * `docs/architecture.md` draws, no import cycle, and the stateless era's names only where the
 * era lives. Each rule takes sources as text, so a test can hand it one offending line.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, posix, relative } from "node:path";
import ts from "typescript";

/** A source file: its path relative to `src/` (posix separators) and its text. */
export interface SourceFile {
  path: string;
  text: string;
}

/** One import or export-from of a file in `src/` that names another file in `src/`. */
export interface ImportEdge {
  from: string;
  to: string;
  /** 1-based line of the statement in `from`. */
  line: number;
  /** The names taken from `to`, as `to` exports them; `*` for a namespace import or `export *`. */
  names: string[];
  /** `export ... from`: the names are handed on, not used. */
  reexport: boolean;
  /** `export ... from`: the name each of `names` is handed on as (`export { a as b }` hands `a` on as `b`). */
  exportedAs: string[];
}

export const SRC = join(import.meta.dirname, "../../src");

/** Every `.ts` file under `src/`, with its text. */
export function readSources(dir = SRC): SourceFile[] {
  const walk = (at: string): string[] =>
    readdirSync(at, { withFileTypes: true }).flatMap((entry) => {
      const path = join(at, entry.name);
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith(".ts") ? [path] : [];
    });
  return walk(dir).map((path) => ({
    path: relative(dir, path).split("\\").join("/"),
    text: readFileSync(path, "utf8"),
  }));
}

/** The file `specifier` names from `from`, relative to `src/`, or `undefined` for a package or a path outside. */
function resolveSpecifier(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const joined = posix.normalize(posix.join(posix.dirname(from), specifier));
  if (joined.startsWith("..")) return undefined;
  const asTs = joined.replace(/\.js$/, ".ts");
  if (known.has(asTs)) return asTs;
  return known.has(joined) ? joined : asTs;
}

/** The import graph of `files`: every static import, export-from and `import("...")` with a literal path. */
export function importEdges(files: readonly SourceFile[]): ImportEdge[] {
  const known = new Set(files.map((file) => file.path));
  return files.flatMap((file) => {
    const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    const edges: ImportEdge[] = [];
    const add = (node: ts.Node, specifier: ts.Expression | undefined, names: string[], exportedAs?: string[]) => {
      if (specifier === undefined || !ts.isStringLiteralLike(specifier)) return;
      const to = resolveSpecifier(file.path, specifier.text, known);
      if (to === undefined) return;
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      edges.push({
        from: file.path,
        to,
        line,
        names,
        reexport: exportedAs !== undefined,
        exportedAs: exportedAs ?? [],
      });
    };
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node)) {
        add(node, node.moduleSpecifier, importedNames(node.importClause));
      } else if (ts.isExportDeclaration(node)) {
        const clause = node.exportClause;
        const elements = clause !== undefined && ts.isNamedExports(clause) ? clause.elements : undefined;
        const names = elements?.map((element) => (element.propertyName ?? element.name).text) ?? ["*"];
        const namespace = clause !== undefined && ts.isNamespaceExport(clause) ? clause.name.text : "*";
        const exportedAs = elements?.map((element) => element.name.text) ?? [namespace];
        add(node, node.moduleSpecifier, names, exportedAs);
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        add(node, node.arguments[0], ["*"]);
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
        const names =
          node.qualifier === undefined ? ["*"] : [ts.isIdentifier(node.qualifier) ? node.qualifier.text : "*"];
        add(node, node.argument.literal as ts.Expression, names);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    return edges;
  });
}

function importedNames(clause: ts.ImportClause | undefined): string[] {
  if (clause === undefined) return [];
  const names = clause.name === undefined ? [] : ["default"];
  const bindings = clause.namedBindings;
  if (bindings === undefined) return names;
  if (ts.isNamespaceImport(bindings)) return [...names, "*"];
  return [...names, ...bindings.elements.map((element) => (element.propertyName ?? element.name).text)];
}

// ---- rule (a): floors ----

/** The folders of `src/` by floor, ground first, as the fenced drawing under "## Floors" shows them. */
export function floorsOf(doc: string): string[][] {
  const section = doc.split(/^## Floors$/m)[1]?.split(/^## /m)[0] ?? "";
  const drawing = section.split("```")[1] ?? "";
  const floors = new Map<number, string[]>();
  for (const match of drawing.matchAll(/^floor\s+(\d+)\s+(.+)$/gm)) {
    const folders = (match[2] ?? "").split(/\s+/).map((name) => name.replace(/^src\//, "").replace(/\/$/, ""));
    floors.set(Number(match[1]), folders);
  }
  return [...floors.entries()].sort(([a], [b]) => a - b).map(([, folders]) => folders);
}

/** The top-level folder of a path in `src/`; a file directly in `src/` (the package face) is `"."`. */
export function folderOf(path: string): string {
  const slash = path.indexOf("/");
  return slash === -1 ? "." : path.slice(0, slash);
}

/**
 * Imports that do not run down a floor: to a folder on the same floor or above, to a folder the
 * drawing does not place, or to a file directly in `src/` (which stands above every floor).
 */
export function floorOffenders(edges: readonly ImportEdge[], floors: readonly string[][]): string[] {
  const floorOf = new Map<string, number>();
  floors.forEach((folders, index) => {
    for (const folder of folders) floorOf.set(folder, index + 1);
  });
  floorOf.set(".", floors.length + 1);
  return edges.flatMap((edge) => {
    const from = folderOf(edge.from);
    const to = folderOf(edge.to);
    if (from === to && from !== ".") return [];
    const at = `${edge.from}:${edge.line} imports ${edge.to}`;
    const fromFloor = floorOf.get(from);
    const toFloor = floorOf.get(to);
    if (fromFloor === undefined) return [`${at}: src/${from} is on no floor of docs/architecture.md`];
    if (toFloor === undefined) return [`${at}: src/${to} is on no floor of docs/architecture.md`];
    if (toFloor >= fromFloor) return [`${at}: floor ${fromFloor} imports floor ${toFloor}`];
    return [];
  });
}

// ---- rule (b): no cycles ----

/** Every set of files that import each other in a circle (strongly connected, more than one file or a self-import), each sorted. */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const edge of edges) {
    if (!next.has(edge.from)) next.set(edge.from, new Set());
    next.get(edge.from)?.add(edge.to);
  }
  // Tarjan's strongly connected components, iterative so a deep chain cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;
  for (const root of next.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; children: string[]; at: number }[] = [];
    const open = (node: string) => {
      index.set(node, counter);
      low.set(node, counter);
      counter += 1;
      stack.push(node);
      onStack.add(node);
      work.push({ node, children: [...(next.get(node) ?? [])], at: 0 });
    };
    open(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as (typeof work)[number];
      if (frame.at < frame.children.length) {
        const child = frame.children[frame.at] as string;
        frame.at += 1;
        if (!index.has(child)) open(child);
        else if (onStack.has(child)) low.set(frame.node, Math.min(low.get(frame.node) ?? 0, index.get(child) ?? 0));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(frame.node) ?? 0));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || next.get(frame.node)?.has(frame.node)) cycles.push(component.sort());
    }
  }
  return cycles.sort((a, b) => (a[0] ?? "").localeCompare(b[0] ?? ""));
}

// ---- rule (c): the stateless era stays in its place ----

const STATELESS = "revisions/stateless/";

/** Where a stateless-era name may be imported: inside `src/revisions` and in any `eras/` folder (`server/eras/`, `transports/http/eras/`). */
export function mayUseStatelessEra(path: string): boolean {
  return path.startsWith("revisions/") || /(^|\/)eras\//.test(path);
}

/**
 * For each file, the names it exports whose definition is in `src/revisions/stateless/`,
 * following `export ... from` and `export *` through any number of files.
 */
export function statelessExports(edges: readonly ImportEdge[]): Map<string, Set<string>> {
  const reexports = new Map<string, ImportEdge[]>();
  for (const edge of edges.filter((candidate) => candidate.reexport)) {
    reexports.set(edge.from, [...(reexports.get(edge.from) ?? []), edge]);
  }
  const memo = new Map<string, Set<string>>();
  const visit = (file: string, seen: Set<string>): Set<string> => {
    const cached = memo.get(file);
    if (cached !== undefined) return cached;
    const names = new Set<string>();
    if (seen.has(file)) return names;
    seen.add(file);
    for (const edge of reexports.get(file) ?? []) {
      const fromStateless = edge.to.startsWith(STATELESS);
      const inner = visit(edge.to, seen);
      edge.names.forEach((name, index) => {
        const as = edge.exportedAs[index] ?? name;
        if (name === "*" && as === "*") {
          for (const innerName of inner) names.add(innerName);
          if (fromStateless) names.add(`* of ${edge.to}`);
        } else if (fromStateless || inner.has(name) || (name === "*" && inner.size > 0)) {
          names.add(as);
        }
      });
    }
    memo.set(file, names);
    return names;
  };
  for (const file of new Set(edges.map((edge) => edge.to))) visit(file, new Set());
  return memo;
}

/** Imports of stateless-era names (directly from `src/revisions/stateless/` or handed on by another file) outside their place. */
export function eraOffenders(edges: readonly ImportEdge[]): string[] {
  const stateless = statelessExports(edges);
  return edges.flatMap((edge) => {
    if (mayUseStatelessEra(edge.from)) return [];
    const handedOn = stateless.get(edge.to) ?? new Set<string>();
    const names = edge.to.startsWith(STATELESS)
      ? edge.names
      : edge.names.filter((name) => handedOn.has(name) || (name === "*" && handedOn.size > 0 && !edge.reexport));
    if (names.length === 0) return [];
    return [`${edge.from}:${edge.line} takes ${names.join(", ")} from ${edge.to}`];
  });
}
