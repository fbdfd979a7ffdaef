/** `auditTo`: the one way producers append, which reports a failing log and never fails the step. */
import { describe, expect, it } from "vitest";
import type { Logger } from "../../src/jsonrpc/logger.js";
import { type AuditLog, auditTo, MemoryAuditLog } from "../../src/stores/index.js";
import { alice, fullEntry } from "./audit-log.contract.js";

function recording(): { logger: Logger; errors: { fields: object; message?: string }[] } {
  const errors: { fields: object; message?: string }[] = [];
  const ignore = () => {};
  return {
    errors,
    logger: { error: (fields, message) => errors.push({ fields, message }), warn: ignore, info: ignore, debug: ignore },
  };
}

const failing: AuditLog = {
  append: async () => {
    throw new Error("disk full");
  },
  forUser: async () => [],
  exportJsonLines: async function* () {},
};

describe("auditTo", () => {
  it("appends to a working log, and reports nothing", async () => {
    const log = new MemoryAuditLog();
    const { logger, errors } = recording();
    await auditTo(log, logger)(fullEntry());
    expect(await log.forUser(alice)).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it("reports a failing log with the event only, and resolves", async () => {
    const { logger, errors } = recording();
    await expect(auditTo(failing, logger)(fullEntry({ detail: { reason: "kept out of the log line" } }))).resolves.toBe(
      undefined,
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toBe("Could not write an audit record");
    expect(errors[0]?.fields).toMatchObject({ event: "credential.used" });
    expect(JSON.stringify(errors[0]?.fields)).not.toContain("kept out of the log line");
  });

  it("reports a refused entry without its values, and survives a logger that throws", async () => {
    const { logger, errors } = recording();
    const secret = "sk_live_51HxQz4bC9aVfZ0";
    await auditTo(new MemoryAuditLog(), logger)({ ...fullEntry(), apiKey: secret } as never);
    expect(errors).toHaveLength(1);
    const reported = (errors[0]?.fields as { err?: Error }).err;
    expect(reported?.message).toContain("apiKey");
    expect(reported?.message).not.toContain(secret);
    expect(JSON.stringify(errors[0]?.fields)).not.toContain(secret);
    const throwing: Logger = {
      ...logger,
      error: () => {
        throw new Error("logger down");
      },
    };
    await expect(auditTo(failing, throwing)(fullEntry())).resolves.toBe(undefined);
  });

  it("does nothing without a log", async () => {
    const { logger, errors } = recording();
    await auditTo(undefined, logger)(fullEntry());
    expect(errors).toEqual([]);
  });
});
