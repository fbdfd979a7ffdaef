import { describe, expect, test } from "vitest";
import { SdkError } from "../../src/jsonrpc/errors.js";
import {
  acceptServerVersion,
  isSupportedVersion,
  LATEST_VERSION,
  negotiateVersion,
  revisionFor,
  SUPPORTED_VERSIONS,
} from "../../src/revisions/negotiate.js";

describe("server side: negotiateVersion", () => {
  test.each(SUPPORTED_VERSIONS)("echoes a supported version (%s)", (version) => {
    expect(negotiateVersion(version).version).toBe(version);
  });

  test.each([["2099-01-01"], ["2024-10-07"], [""], [undefined], [20241105]])(
    "answers an unsupported or missing version (%j) with the latest",
    (requested) => {
      expect(negotiateVersion(requested).version).toBe(LATEST_VERSION);
    },
  );

  test("a server limited to older versions answers with the newest of those", () => {
    const supported = ["2025-03-26", "2024-11-05"] as const;
    expect(negotiateVersion("2025-11-25", supported).version).toBe("2025-03-26");
    expect(negotiateVersion("2024-11-05", supported).version).toBe("2024-11-05");
  });
});

describe("client side: acceptServerVersion", () => {
  test("accepts any supported version the server answers with", () => {
    expect(acceptServerVersion("2024-11-05").version).toBe("2024-11-05");
  });

  test("refuses a version it does not speak, saying which it does", () => {
    expect(() => acceptServerVersion("2026-01-01")).toThrow(SdkError);
    try {
      acceptServerVersion("2026-01-01", ["2025-11-25"]);
    } catch (error) {
      expect((error as SdkError).code).toBe("INVALID_RESULT");
      expect((error as SdkError).message).toContain('"2026-01-01"');
      expect((error as SdkError).message).toContain("supported: 2025-11-25");
    }
  });

  test("a client pinned to some versions refuses the others", () => {
    expect(() => acceptServerVersion("2024-11-05", ["2025-11-25", "2025-06-18"])).toThrow(SdkError);
  });
});

describe("version list", () => {
  test("newest first, latest is the first", () => {
    expect(SUPPORTED_VERSIONS).toEqual(["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
    expect(LATEST_VERSION).toBe(SUPPORTED_VERSIONS[0]);
  });

  test("revisionFor gives one shared object per version, and nothing for unknown strings", () => {
    expect(revisionFor("2025-06-18")).toBe(revisionFor("2025-06-18"));
    expect(revisionFor("2025-06-18")?.version).toBe("2025-06-18");
    expect(revisionFor("1.0")).toBeUndefined();
    expect(isSupportedVersion("toString")).toBe(false);
  });
});
