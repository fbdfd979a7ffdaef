import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { EXIT_CODE_MEANINGS } from "../../src/cli/exit-codes.js";
import { helpText } from "../../src/cli/help.js";

describe("the exit codes as documented", () => {
  it("are the same in docs/cli.md and in --help", async () => {
    const doc = await readFile(new URL("../../docs/cli.md", import.meta.url), "utf8");
    for (const [code, meaning] of Object.entries(EXIT_CODE_MEANINGS)) {
      expect(doc).toContain(`| ${code} | ${meaning} |`);
      expect(helpText()).toContain(`  ${code}  ${meaning}`);
    }
  });
});
