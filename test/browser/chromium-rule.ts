/**
 * When the browser tests run. A clone on a machine without Chromium passes `npm test` with the
 * browser tests skipped and one line saying why; under CI (`CI` set, as CI services do and
 * `.ci/run` does) a missing Chromium fails them instead, so a CI run never passes without them.
 * `HANDOFF_SKIP_BROWSER=1` skips them anywhere, Chromium or not.
 */

/** Where Chromium was looked for, and whether an executable is there. */
export interface ChromiumLookup {
  found: boolean;
  path: string;
}

/** Whether `CI` asks for a strict run: set to anything but empty, `0` or `false`. */
function isCi(env: NodeJS.ProcessEnv): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== "" && value !== "0" && value !== "false";
}

/** The one-line reason the browser tests are skipped, or `undefined` when they run. */
export function browserTestsSkipped(env: NodeJS.ProcessEnv, chromium: ChromiumLookup): string | undefined {
  if (env.HANDOFF_SKIP_BROWSER === "1") return "browser tests skipped: HANDOFF_SKIP_BROWSER=1";
  if (chromium.found || isCi(env)) return undefined;
  return (
    `browser tests skipped: no Chromium at ${chromium.path} ` +
    "(install Debian's chromium or set CHROMIUM_PATH; with CI set, a missing Chromium fails them)"
  );
}

/** @throws Error naming what to install when no Chromium was found (the browser tests then fail). */
export function missingChromium(chromium: ChromiumLookup): void {
  if (chromium.found) return;
  throw new Error(
    `The browser tests need Chromium at ${chromium.path}: install Debian's chromium (apt-get install chromium) ` +
      "or point CHROMIUM_PATH at one.",
  );
}
