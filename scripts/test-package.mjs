#!/usr/bin/env node
/**
 * Tests the package as it ships: a fresh build, packed with `npm pack`, installed from the
 * tarball into an empty folder, then used from there. It checks that the tarball holds the build
 * and nothing else (no tests, no sources, no stale files), that every subpath export in
 * package.json imports and carries its key symbols, that one error class is shared by all
 * subpaths, that a server and a client from the installed package can talk, and that the
 * `handoff` command runs. It also checks that the install is light: the app installs only the
 * package and zod, no native module is compiled or installed (better-sqlite3 is an optional peer),
 * the quickstart's stdio greeter runs from there, and a SQLite store says which package it needs.
 * Dependencies come from the npm cache when they are there.
 *
 * Usage: node scripts/test-package.mjs   (KEEP_PACKAGE_TEST=1 keeps the temporary folder)
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { transformSync } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const windows = process.platform === "win32";
const npm = windows ? "npm.cmd" : "npm";
const npx = windows ? "npx.cmd" : "npx";

/** Symbols each subpath must export; a subpath not listed here must still import. */
const EXPECTED = {
  ".": ["ProtocolError", "SdkError", "ErrorCode", "JsonRpcSession", "createMemoryTransportPair", "decodeFrame"],
  "./server": ["McpServer", "ResourceTemplate", "ProtocolError"],
  "./client": ["McpClient", "ProtocolError", "UrlElicitationRequiredError"],
  "./stdio": ["StdioServerTransport", "StdioClientTransport"],
  "./http": ["StreamableHttpServer", "StreamableHttpClientTransport", "toNodeHandler"],
  "./memory": ["createMemoryTransportPair"],
  "./stores": ["MemoryInteractionStore", "SqliteInteractionStore", "SqliteCredentialVault", "InProcessMessageBus"],
  "./interaction": ["HandoffClient", "InteractionManager", "InteractionRequired", "inspectUrl", "createConsentPolicy"],
  "./auth": ["createBearerVerifier", "withBearerAuth", "protectedResourceMetadata", "userOf"],
  "./connect": [
    "createConnectHandler",
    "CredentialBroker",
    "withCredentials",
    "MemoryGrantStateStore",
    "startLocalConnect",
  ],
  "./postgres": [
    "connectPostgres",
    "migrate",
    "PostgresInteractionStore",
    "PostgresCredentialVault",
    "PostgresKeyedLock",
  ],
  "./redis": ["connectRedis", "RedisInteractionStore", "RedisEventStore", "RedisMessageBus", "RedisSessionDirectory"],
};

/** A zod release other than the one package.json pins for our tests. */
const USER_ZOD = "4.6.7";

/** A user's strict TypeScript settings, with the package's own declarations checked too. */
const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    skipLibCheck: false,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    types: ["node"],
  },
  files: ["check.ts"],
};

const problems = [];
const fail = (message) => problems.push(message);

function run(command, args, cwd) {
  // Node refuses to start a .cmd file without a shell.
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], shell: windows });
}

function step(title) {
  process.stdout.write(`== ${title}\n`);
}

const work = mkdtempSync(join(tmpdir(), "mcp-handoff-package-"));
try {
  step("pack (prepack builds)");
  // No dist/ at all: `npm pack` must build it (prepack), and files of an older layout cannot slip in.
  rmSync(join(root, "dist"), { recursive: true, force: true });
  const [packed] = JSON.parse(run(npm, ["pack", "--json", "--pack-destination", work], root));
  const files = packed.files.map((file) => file.path);
  checkContents(files);
  process.stdout.write(`${packed.filename}: ${files.length} files, ${packed.size} bytes\n`);

  step("install");
  const app = join(work, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "package-test", private: true, type: "module" }));
  // The app's own zod, newer than the one the package is tested with: zod is a peer dependency, so
  // the package must use this copy (whose registry holds the app's `.describe()` texts), not one of its own.
  // Node's type definitions too, as a TypeScript app has them, for the type-check step.
  const install = [
    join(work, packed.filename),
    `zod@${USER_ZOD}`,
    `@types/node@${manifest.devDependencies["@types/node"]}`,
  ];
  run(npm, ["install", ...install, "--no-audit", "--no-fund", "--prefer-offline", "--silent"], app);
  const copies = run(npm, ["ls", "zod", "--all", "--parseable"], app).trim().split("\n").filter(Boolean);
  if (copies.length !== 1)
    fail(`the install holds ${copies.length} copies of zod, not the app's one:\n${copies.join("\n")}`);

  step("a light install: no native module");
  checkNoNativeModule(join(app, "node_modules"));

  step("the quickstart's stdio greeter");
  // The README's server, as JavaScript, run by the package's own stdio client.
  const greeter = readFileSync(join(root, "examples", "quickstart", "server.ts"), "utf8");
  writeFileSync(join(app, "greeter.mjs"), transformSync(greeter, { loader: "ts", format: "esm" }).code);
  writeFileSync(join(app, "greet.mjs"), greetScript());
  process.stdout.write(run(process.execPath, ["greet.mjs"], app));

  step("import every subpath export");
  writeFileSync(join(app, "check.mjs"), checkScript());
  process.stdout.write(run(process.execPath, ["check.mjs"], app));

  step("type-check a TypeScript app");
  // Strict, and with skipLibCheck off: every declaration file of the package must resolve what
  // it imports from the install alone: without better-sqlite3 or its types (the stores declare what they use).
  writeFileSync(join(app, "tsconfig.json"), JSON.stringify(TSCONFIG));
  writeFileSync(join(app, "check.ts"), typedScript());
  try {
    run(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "."], app);
  } catch (error) {
    fail(`the package's types do not check in a strict app:\n${error.stdout ?? error.message}`);
  }

  step("npx handoff --help");
  // `--no` forbids fetching anything; `--` keeps `--help` away from npx itself.
  const help = run(npx, ["--no", "--", "handoff", "--help"], app);
  if (!/handoff/.test(help)) fail(`handoff --help printed no usage:\n${help}`);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
} finally {
  if (process.env.KEEP_PACKAGE_TEST) process.stdout.write(`kept ${work}\n`);
  else rmSync(work, { recursive: true, force: true });
}

if (problems.length > 0) {
  process.stderr.write(`\nThe package is not right:\n${problems.map((p) => `- ${p}`).join("\n")}\n`);
  process.exit(1);
}
process.stdout.write("The package installs and works.\n");

/**
 * Nothing in the install compiled or holds a native module: no better-sqlite3 (an optional peer
 * the app did not ask for), no `.node` addon, no node-gyp `binding.gyp` or `build/config.gypi`.
 */
function checkNoNativeModule(modules) {
  if (existsSync(join(modules, "better-sqlite3")))
    fail("better-sqlite3 was installed for an app that did not ask for it");
  if (existsSync(join(modules, "pg"))) fail("pg was installed for an app that did not ask for it");
  if (existsSync(join(modules, "ioredis"))) fail("ioredis was installed for an app that did not ask for it");
  const native = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.node$|^binding\.gyp$/.test(entry.name) || path.endsWith(join("build", "config.gypi")))
        native.push(path);
    }
  };
  walk(modules);
  if (native.length > 0) fail(`the install holds native build files:\n${native.join("\n")}`);
  const count = readdirSync(modules).filter((name) => !name.startsWith(".")).length;
  process.stdout.write(`no native module; ${count} top-level folders in node_modules\n`);
}

/** A client from the package starts the greeter over stdio and calls its tool. */
function greetScript() {
  return `
import { McpClient } from "mcp-handoff/client";
import { StdioClientTransport } from "mcp-handoff/stdio";
const client = new McpClient({ name: "package-test", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: process.execPath, args: ["greeter.mjs"] }));
const result = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
await client.close();
if (result.content?.[0]?.text !== "Hello, Ada!") {
  console.error(\`the greeter answered \${JSON.stringify(result)}\`);
  process.exit(1);
}
console.log("the greeter answered: Hello, Ada!");
`;
}

/** The tarball holds package.json, docs and the build of src/, with every declared entry point. */
function checkContents(files) {
  const targets = [...Object.values(manifest.bin ?? {})];
  for (const entry of Object.values(manifest.exports)) {
    if (typeof entry === "string") targets.push(entry);
    else targets.push(...Object.values(entry));
  }
  const bundles = new Set(targets.map((target) => /^\.\/dist\/([\w-]+)\.js$/.exec(target)?.[1]).filter(Boolean));
  const allowed = /^(package\.json|README\.md|LICENSE(\.md)?|CHANGELOG\.md|dist\/.+)$/;
  for (const file of files) {
    if (!allowed.test(file)) fail(`unexpected file in the tarball: ${file}`);
    if (/(^|\/)(test|tests|__tests__)\/|\.test\.|\.spec\./.test(file)) fail(`test file in the tarball: ${file}`);
    // Every declaration file must come from a source file that exists now.
    const source = /^dist\/(.+?)\.(d\.ts|d\.ts\.map)$/.exec(file)?.[1];
    if (source !== undefined && !existsSync(join(root, "src", `${source}.ts`))) fail(`stale build output: ${file}`);
    // JavaScript is the bundle (scripts/bundle.mjs): entry files and shared chunks, all directly in dist/.
    const script = /^dist\/(.+)\.js(\.map)?$/.exec(file)?.[1];
    if (script !== undefined && !bundles.has(script) && !/^chunk-[\w-]+$/.test(script)) {
      fail(`JavaScript outside the bundle: ${file}`);
    }
  }
  for (const subpath of Object.keys(manifest.exports)) {
    if (!(subpath in EXPECTED)) process.stdout.write(`note: no key symbols listed for export "${subpath}"\n`);
  }
  for (const target of targets) {
    const path = target.replace(/^\.\//, "");
    if (!files.includes(path)) fail(`package.json points at ${target}, which is not in the tarball`);
  }
}

/** TypeScript that imports every subpath export and relies on a tool's inferred argument type. */
function typedScript() {
  const subpaths = Object.keys(manifest.exports);
  const imports = subpaths.map((subpath, i) => {
    const specifier = subpath === "." ? manifest.name : manifest.name + subpath.slice(1);
    return `import * as m${i} from ${JSON.stringify(specifier)};`;
  });
  return `${imports.join("\n")}
export const modules = [${subpaths.map((_, i) => `m${i}`).join(", ")}];
const server = new m${subpaths.indexOf("./server")}.McpServer({ name: "typed", version: "1.0.0" });
server.registerTool(
  "echo",
  { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } as const },
  async ({ text }) => {
    const typed: string = text;
    return { content: [{ type: "text", text: typed }] };
  },
);
`;
}

/** The script run inside the install: imports by package name only, as a user would. */
function checkScript() {
  const subpaths = Object.keys(manifest.exports);
  return `
const subpaths = ${JSON.stringify(subpaths)};
const expected = ${JSON.stringify(EXPECTED)};
const problems = [];
const modules = {};
for (const subpath of subpaths) {
  const specifier = subpath === "." ? ${JSON.stringify(manifest.name)} : ${JSON.stringify(manifest.name)} + subpath.slice(1);
  try {
    modules[subpath] = await import(specifier);
  } catch (error) {
    problems.push(\`import "\${specifier}" failed: \${error.message}\`);
    continue;
  }
  const names = Object.keys(modules[subpath]);
  if (names.length === 0) problems.push(\`"\${specifier}" exports nothing\`);
  for (const name of expected[subpath] ?? []) {
    if (modules[subpath][name] === undefined) problems.push(\`"\${specifier}" lacks \${name}\`);
  }
  console.log(\`\${specifier}: \${names.length} exports\`);
}

// One package, one copy of each class: an error from any subpath is an instance of the root's.
const root = modules["."];
for (const [subpath, module] of Object.entries(modules)) {
  if (module.ProtocolError !== undefined && module.ProtocolError !== root?.ProtocolError) {
    problems.push(\`ProtocolError of "\${subpath}" is not the root's\`);
  }
}

// A server and a client from the installed package talk over the in-memory pair, in the newest
// revision (generated validators), in the one before (its own) and in the oldest (validators
// compiled from its schema document); a refused message is explained from the schema document,
// and a zod tool is listed with its description. Each needs files found beside the bundle.
if (problems.length === 0) {
  const { McpServer } = modules["./server"];
  const { McpClient } = modules["./client"];
  const { z } = await import("zod");
  for (const protocolVersion of [undefined, "2025-11-25", "2024-11-05"]) {
    const revision = protocolVersion ?? "the newest revision";
    const server = new McpServer({ name: "packaged", version: "1.0.0" });
    server.registerTool(
      "echo",
      { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
      ({ text }) => ({ content: [{ type: "text", text }] }),
    );
    server.registerTool("shout", { inputSchema: { text: z.string().describe("What to shout") } }, ({ text }) => ({
      content: [{ type: "text", text: text.toUpperCase() }],
    }));
    const [clientEnd, serverEnd] = root.createMemoryTransportPair();
    await server.connect(serverEnd);
    const client = new McpClient({ name: "packaged-client", version: "1.0.0" }, protocolVersion ? { protocolVersion } : {});
    await client.connect(clientEnd);
    const result = await client.callTool({ name: "echo", arguments: { text: "shipped" } });
    if (result.content?.[0]?.text !== "shipped") problems.push(\`\${revision}: tools/call answered \${JSON.stringify(result)}\`);
    const { tools } = await client.listTools();
    const described = tools.find((tool) => tool.name === "shout")?.inputSchema?.properties?.text?.description;
    if (described !== "What to shout") problems.push(\`\${revision}: tools/list answered \${JSON.stringify(tools)}\`);
    const refused = await client.callTool({ name: 42 }).then(
      () => "accepted",
      (error) => String(error?.message),
    );
    if (!/name/.test(refused)) problems.push(\`\${revision}: a tools/call without a name was answered: \${refused}\`);
    await client.close();
    await server.close();
  }
  console.log("a server and a client from the package talked, in three revisions");
}

// better-sqlite3 is not installed here: a SQLite store says which package to install.
if (modules["./stores"] !== undefined) {
  const { SqliteInteractionStore, SqliteCredentialVault, INSECURE_PLAINTEXT_VAULT_FOR_TESTS } = modules["./stores"];
  for (const open of [
    () => new SqliteInteractionStore({ filename: ":memory:" }),
    () => new SqliteCredentialVault({ filename: ":memory:", encryption: INSECURE_PLAINTEXT_VAULT_FOR_TESTS }),
  ]) {
    try {
      open();
      problems.push("a SQLite store opened without better-sqlite3 installed");
    } catch (error) {
      if (error?.code !== "DEPENDENCY_MISSING" || !String(error.message).includes("npm install better-sqlite3")) {
        problems.push(\`a SQLite store without better-sqlite3 failed unclearly: \${error?.code} \${error?.message}\`);
      }
    }
  }
  console.log("the SQLite stores say: npm install better-sqlite3");
}

// pg is not installed here either: opening the PostgreSQL stores from a URL says which package to install.
if (modules["./postgres"] !== undefined) {
  const { connectPostgres } = modules["./postgres"];
  const { INSECURE_PLAINTEXT_VAULT_FOR_TESTS } = modules["./stores"];
  try {
    await connectPostgres({ connectionString: "postgres://127.0.0.1:1/none", vault: { encryption: INSECURE_PLAINTEXT_VAULT_FOR_TESTS } });
    problems.push("the PostgreSQL stores opened without pg installed");
  } catch (error) {
    if (error?.code !== "DEPENDENCY_MISSING" || !String(error.message).includes("npm install pg")) {
      problems.push(\`the PostgreSQL stores without pg failed unclearly: \${error?.code} \${error?.message}\`);
    }
  }
  console.log("the PostgreSQL stores say: npm install pg");
}

// Nor is ioredis: opening the Redis engines from a URL says which package to install.
if (modules["./redis"] !== undefined) {
  const { connectRedis } = modules["./redis"];
  try {
    await connectRedis({ url: "redis://127.0.0.1:1" });
    problems.push("the Redis engines opened without ioredis installed");
  } catch (error) {
    if (error?.code !== "DEPENDENCY_MISSING" || !String(error.message).includes("npm install ioredis")) {
      problems.push(\`the Redis engines without ioredis failed unclearly: \${error?.code} \${error?.message}\`);
    }
  }
  console.log("the Redis engines say: npm install ioredis");
}

if (problems.length > 0) {
  console.error(problems.join("\\n"));
  process.exit(1);
}
`;
}
