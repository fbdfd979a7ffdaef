import { describe, expect, it } from "vitest";
import { browserTestsSkipped, missingChromium } from "./chromium-rule.js";

const found = { found: true, path: "/usr/bin/chromium" };
const missing = { found: false, path: "/usr/bin/chromium" };

describe("when the browser tests run", () => {
  it("run where Chromium is installed, with or without CI", () => {
    expect(browserTestsSkipped({}, found)).toBeUndefined();
    expect(browserTestsSkipped({ CI: "true" }, found)).toBeUndefined();
  });

  it("skip with a one-line reason where no Chromium is installed, naming what to install", () => {
    const reason = browserTestsSkipped({}, missing);
    expect(reason).toBe(
      "browser tests skipped: no Chromium at /usr/bin/chromium (install Debian's chromium or set CHROMIUM_PATH; with CI set, a missing Chromium fails them)",
    );
    expect(reason).not.toContain("\n");
    expect(browserTestsSkipped({ CI: "false" }, missing)).toBe(reason);
    expect(browserTestsSkipped({ CI: "" }, missing)).toBe(reason);
  });

  it("do not skip under CI without Chromium: the run fails, saying what to install", () => {
    for (const CI of ["true", "1"]) expect(browserTestsSkipped({ CI }, missing)).toBeUndefined();
    expect(() => missingChromium(missing)).toThrow(
      "The browser tests need Chromium at /usr/bin/chromium: install Debian's chromium (apt-get install chromium) or point CHROMIUM_PATH at one.",
    );
    expect(() => missingChromium(found)).not.toThrow();
  });

  it("skip when HANDOFF_SKIP_BROWSER=1 asks, even where Chromium is installed or CI is set", () => {
    const reason = "browser tests skipped: HANDOFF_SKIP_BROWSER=1";
    expect(browserTestsSkipped({ HANDOFF_SKIP_BROWSER: "1" }, found)).toBe(reason);
    expect(browserTestsSkipped({ HANDOFF_SKIP_BROWSER: "1", CI: "true" }, missing)).toBe(reason);
  });
});
