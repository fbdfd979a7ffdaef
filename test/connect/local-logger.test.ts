/**
 * A local connect page's failure is never dropped: it goes to the `logger` option as
 * `error({ err }, message)`, without the secret, and by default to stderr, never stdout (where a
 * stdio server speaks JSON-RPC). The user gets a page that says nothing was stored.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLocalConnectHandler, LocalCredentials } from "../../src/connect/index.js";
import { InteractionManager, InteractionRequired } from "../../src/interaction/server/index.js";
import type { Logger } from "../../src/jsonrpc/logger.js";
import type { RequestContext } from "../../src/server/index.js";
import {
  INSECURE_PLAINTEXT_VAULT_FOR_TESTS,
  InProcessMessageBus,
  MemoryCredentialVault,
  MemoryInteractionStore,
} from "../../src/stores/index.js";
import { recordingLogger } from "../support/recording-logger.js";

const PORT = 47_124;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const USER = { issuer: "local", subject: "ada" };
const KEY = "wk-secret-never-logged";

afterEach(() => {
  vi.restoreAllMocks();
});

/** A handler whose vault fails on `put` when `failing`, and a link to its page. */
async function setUp(options: { failing: boolean; logger?: Logger }) {
  const manager = new InteractionManager({
    store: new MemoryInteractionStore(),
    bus: new InProcessMessageBus(),
    unsafeLocalUser: USER,
    sweepIntervalMs: 0,
  });
  const vault = new MemoryCredentialVault({ encryption: INSECURE_PLAINTEXT_VAULT_FOR_TESTS });
  if (options.failing) {
    vi.spyOn(vault, "put").mockRejectedValue(Object.assign(new Error("disk full"), { cause: { secret: KEY } }));
  }
  const handle = createLocalConnectHandler({
    manager,
    vault,
    port: PORT,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  const credentials = new LocalCredentials({ service: manager, vault, origin: ORIGIN });
  const thrown = await credentials
    .require("weather", { kind: "secret" }, { authInfo: undefined } as RequestContext)
    .catch((error: unknown) => error);
  if (!(thrown instanceof InteractionRequired)) throw new Error("expected a hand-off");
  const interaction = await manager.create({
    url: thrown.url,
    message: thrown.message,
    user: USER,
    sessionId: "s",
    ...(thrown.purpose === undefined ? {} : { purpose: thrown.purpose }),
  });
  const headers = { host: `127.0.0.1:${PORT}` };
  const claim = await handle(new Request(interaction.url, { headers }));
  const cookie = (claim.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
  const page = new URL(claim.headers.get("location") ?? "", ORIGIN).href;
  const form = await (await handle(new Request(page, { headers: { ...headers, cookie } }))).text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(form)?.[1] ?? "";
  const save = () =>
    handle(
      new Request(page, {
        method: "POST",
        headers: { ...headers, cookie, origin: ORIGIN, "sec-fetch-site": "same-origin" },
        body: new URLSearchParams({ csrf, secret: KEY }),
      }),
    );
  return { save, manager, id: interaction.id };
}

describe("local connect pages: failures are logged", () => {
  it("a vault that fails is told to the logger, without the secret; the page says nothing was stored", async () => {
    const logger = recordingLogger();
    const { save } = await setUp({ failing: true, logger });
    const page = await save();
    expect(page.status).toBe(503);
    expect(await page.text()).toContain("nothing was stored");
    expect(logger.entries).toHaveLength(1);
    expect(logger.entries[0]).toMatchObject({ level: "error", message: "Could not store the credential" });
    expect(String((logger.entries[0]?.error as Error).message)).toBe("disk full");
    // The vault's error is reduced to its name, message and stack: what it carried as `cause` is gone.
    const logged = logger.entries[0]?.error as Error;
    expect(logged.cause).toBeUndefined();
    expect(`${logged.message} ${logged.stack} ${JSON.stringify(logged)}`).not.toContain(KEY);
  });

  it("positive control: a vault that works logs nothing and the key is saved", async () => {
    const logger = recordingLogger();
    const { save, manager, id } = await setUp({ failing: false, logger });
    expect((await save()).status).toBe(200);
    expect(logger.entries).toEqual([]);
    expect((await manager.get(id))?.status).toBe("completed");
  });

  it("by default, the failure goes to stderr and nothing to stdout", async () => {
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const stdout = vi.spyOn(process.stdout, "write");
    const { save } = await setUp({ failing: true });
    expect((await save()).status).toBe(503);
    const written = stderr.mock.calls.map(([chunk]) => String(chunk)).join("");
    stderr.mockRestore();
    expect(written).toContain("Could not store the credential");
    expect(written).not.toContain(KEY);
    expect(stdout.mock.calls.map(([chunk]) => String(chunk)).join("")).not.toContain("Could not store");
  });
});
