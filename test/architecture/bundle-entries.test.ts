/**
 * What each entry point of the package loads, read from the bundle as `npm run build` makes it
 * (the same esbuild options, built in memory): the files an import of the entry reaches, and the
 * dependencies those import. A server or a client must not pull in the CLI's terminal prompts, its
 * browser opener, or the native SQLite module; no entry but the CLI's refers to the first two at all,
 * not even through an `import()` left for later.
 */
import { build, type Metafile } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error a build script in JavaScript, without declarations
import { bundleOptions, root } from "../../scripts/bundle-options.mjs";

interface Reach {
  /** Bundle files reached by static imports only: what `import "mcp-handoff/x"` loads at once. */
  eager: Set<string>;
  /** Every bundle file reached, dynamic imports included: what it may load later. */
  all: Set<string>;
}

let metafile: Metafile;
const text = new Map<string, string>();

beforeAll(async () => {
  const result = await build({
    ...bundleOptions(),
    write: false,
    metafile: true,
    sourcemap: false,
    logLevel: "silent",
  });
  metafile = result.metafile as Metafile;
  for (const file of result.outputFiles ?? []) text.set(file.path.slice((root as string).length), file.text);
}, 60_000);

const output = (name: string) => `dist/${name}.js`;

function reach(entry: string): Reach {
  const walk = (withDynamic: boolean) => {
    const seen = new Set<string>();
    const todo = [output(entry)];
    for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
      if (seen.has(file)) continue;
      seen.add(file);
      for (const edge of metafile.outputs[file]?.imports ?? []) {
        if (edge.external) continue;
        if (edge.kind === "dynamic-import" && !withDynamic) continue;
        todo.push(edge.path);
      }
    }
    return seen;
  };
  return { eager: walk(false), all: walk(true) };
}

/** The external packages the files import: `static` by import statements, `dynamic` by `import()`. */
function externals(files: Set<string>): { static: Set<string>; dynamic: Set<string> } {
  const found = { static: new Set<string>(), dynamic: new Set<string>() };
  for (const file of files) {
    for (const edge of metafile.outputs[file]?.imports ?? []) {
      if (!edge.external) continue;
      (edge.kind === "dynamic-import" ? found.dynamic : found.static).add(edge.path);
    }
  }
  return found;
}

const mentions = (files: Set<string>, name: string) => [...files].filter((file) => text.get(file)?.includes(name));

const ENTRIES = Object.keys(bundleOptions().entryPoints as Record<string, string>);
const CLI_ONLY = ["@clack/prompts", "open"];

describe("the package's entry points", () => {
  it("are the ones package.json declares, the CLI among them", () => {
    expect(ENTRIES).toEqual(expect.arrayContaining(["index", "server", "client", "stdio", "http", "stores", "cli"]));
    expect(metafile.outputs[output("cli")]).toBeDefined();
  });

  it.each(ENTRIES.filter((entry) => entry !== "cli"))(
    "%s never loads the CLI's terminal prompts or browser opener, not even later",
    (entry) => {
      const { static: eager, dynamic } = externals(reach(entry).all);
      expect(CLI_ONLY.filter((name) => eager.has(name) || dynamic.has(name))).toEqual([]);
      expect(mentions(reach(entry).all, "@clack/prompts")).toEqual([]);
    },
  );

  it("only the CLI imports them: its prompts when it starts, the browser opener once a page is to open", () => {
    const importing = ENTRIES.filter((entry) => {
      const found = externals(reach(entry).all);
      return CLI_ONLY.some((name) => found.static.has(name) || found.dynamic.has(name));
    });
    expect(importing).toEqual(["cli"]);
    expect(externals(reach("cli").eager).static.has("@clack/prompts")).toBe(true);
    expect(externals(reach("cli").all).dynamic.has("open")).toBe(true);
  });

  it("only the SQLite stores refer to better-sqlite3, and they load it when a store opens a file, not on import", () => {
    const referring = ENTRIES.filter((entry) => mentions(reach(entry).all, "better-sqlite3").length > 0);
    expect(referring).toEqual(["stores"]);
    // No import statement or import() of it anywhere: a require() at the moment a file is opened.
    const imported = ENTRIES.filter((entry) => {
      const found = externals(reach(entry).all);
      return found.static.has("better-sqlite3") || found.dynamic.has("better-sqlite3");
    });
    expect(imported).toEqual([]);
  });
});

describe("the PostgreSQL entry point", () => {
  it("is the only one that refers to pg, and loads it when a pool is opened from a URL, not on import", () => {
    expect(ENTRIES).toContain("postgres");
    const referring = ENTRIES.filter((entry) => entry !== "cli" && mentions(reach(entry).all, '"pg"').length > 0);
    expect(referring).toEqual(["postgres"]);
    const imported = ENTRIES.filter((entry) => {
      const found = externals(reach(entry).all);
      return found.static.has("pg") || found.dynamic.has("pg");
    });
    expect(imported).toEqual([]);
    // The CLI reaches the PostgreSQL engines only through an import() when `handoff migrate` runs.
    expect(mentions(reach("cli").eager, '"pg"')).toEqual([]);
    expect(mentions(reach("cli").all, '"pg"').length).toBeGreaterThan(0);
  });
});

describe("the Redis entry point", () => {
  it("is the only one that refers to ioredis, and loads it when a connection is opened from a URL, not on import", () => {
    expect(ENTRIES).toContain("redis");
    const referring = ENTRIES.filter((entry) => mentions(reach(entry).all, '"ioredis"').length > 0);
    expect(referring).toEqual(["redis"]);
    const imported = ENTRIES.filter((entry) => {
      const found = externals(reach(entry).all);
      return found.static.has("ioredis") || found.dynamic.has("ioredis");
    });
    expect(imported).toEqual([]);
  });
});
