import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/** A fresh directory for this test file's database files, removed when the file's tests end. */
export function tempDir(): () => string {
  const dir = mkdtempSync(join(tmpdir(), "handoff-stores-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let count = 0;
  return () => {
    count += 1;
    return join(dir, `store-${count}.db`);
  };
}
