/**
 * Without `@opentelemetry/api` installed nothing is traced and nothing breaks: a hand-off is
 * served as ever (the default), and asking for tracing outright is refused with an error that
 * says what to install. The positive control: with the API and a tracer, the same calls make spans.
 * Each case without the API runs in a fresh Node process whose resolver hides the package.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { Tracing } from "../../src/tracing/index.js";
import { recorder } from "./support.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const HIDE = fileURLToPath(new URL("./fixtures/hide-otel.mjs", import.meta.url));
const FIXTURE = fileURLToPath(new URL("./fixtures/serve-without-otel.ts", import.meta.url));

const missing = () => Promise.reject(Object.assign(new Error("Cannot find package"), { code: "ERR_MODULE_NOT_FOUND" }));

describe("without @opentelemetry/api", () => {
  it("serves a hand-off as ever by default, and refuses tracing: true naming the package", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "--import", HIDE, FIXTURE], { cwd: ROOT });
    const { plain, asked } = JSON.parse(stdout.trim().split("\n").at(-1) ?? "");
    expect(plain).toEqual({ code: -32042 });
    expect(asked.refused).toBe("DEPENDENCY_MISSING");
    expect(asked.message).toContain("npm install @opentelemetry/api");
  });

  it("calls straight through, with nothing traced", async () => {
    const tracing = Tracing.from({}, missing);
    await tracing.ready().catch(() => undefined);
    expect(tracing.on).toBe(false);
    expect(tracing.serve("tools/call x", {}, { traceparent: "00-x" }, () => 42)).toBe(42);
    expect(await tracing.step("step", {}, async (span) => span)).toBeUndefined();
    expect(tracing.carrier()).toBeUndefined();
    const quiet = Tracing.from(undefined, missing);
    await quiet.ready();
    expect(quiet.on).toBe(false);
  });

  it("positive control: with the API and a tracer, spans are made", async () => {
    const spans = recorder();
    const tracing = Tracing.from({ tracer: spans.tracer });
    await tracing.ready();
    expect(tracing.on).toBe(true);
    await tracing.serve("tools/call x", {}, undefined, () => tracing.step("inner", {}, async () => 1));
    expect(spans.spans().map((span) => span.name)).toEqual(["inner", "tools/call x"]);
  });
});
