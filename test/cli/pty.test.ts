/**
 * `handoff call` as a person sees it in a terminal: the progress bar of a long call, the server's
 * log messages, the hand-off prompt with the time spent waiting under it and erased when the retry
 * answers first, and the terminal left in its normal modes. Without a terminal, or with --json, the same events are plain lines.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PtyRun, ptyMissing } from "./pty.js";

const fixture = fileURLToPath(new URL("./fixtures/server.ts", import.meta.url));
const main = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
const handoff = [process.execPath, "--import", "tsx", main];
const server = ["--", process.execPath, "--import", "tsx", fixture];
const COUNT = ["call", "count", '{"to":5,"stepMs":200}'];

const missing = ptyMissing();
// Under CI a missing `script` fails these tests instead of skipping them.
const inPty = missing !== undefined && !process.env.CI ? describe.skip : describe;
if (missing !== undefined) console.warn(`pseudo-terminal tests: ${missing}`);

inPty("in a terminal", () => {
  it("draws a progress bar that fills up, shows the server's log messages, and ends on the last state", async () => {
    const pty = new PtyRun([...handoff, ...COUNT, ...server]);
    expect(await pty.exited).toBe(0);
    // Frames as they were drawn: the bar part filled in magenta, the rest dim, then the step.
    const esc = "\u001b";
    const frame = new RegExp(`${esc}\\[35m(━*)${esc}\\[39m${esc}\\[2m(━*)${esc}\\[22m (\\d)/5 \\((\\d+)%\\)`, "g");
    const frames = [...pty.output.matchAll(frame)];
    const steps = frames.map((frame) => Number(frame[3]));
    expect(steps.some((step) => step > 0 && step < 5)).toBe(true);
    expect(steps).toEqual([...steps].sort());
    for (const [, filled, empty, step] of frames) {
      expect(filled?.length).toBe(Math.floor((Number(step) / 5) * 30));
      expect((filled?.length ?? 0) + (empty?.length ?? 0)).toBe(30);
    }
    const screen = await pty.screen();
    // What is left: the log message (escaped) above the last state of the bar, then the result.
    const warning = screen.findIndex((row) => row.includes("[server warning counter] halfway \\u{1b}[31mthere"));
    const last = screen.findIndex((row) => /^◇ {2}Progress 5\/5 \(100%\): Counted 5$/.test(row));
    expect(warning).toBeGreaterThan(-1);
    expect(last).toBeGreaterThan(warning);
    expect(screen.slice(last + 1)).toContain("counted to 5");
    expect(screen.filter((row) => /Counted \d/.test(row))).toHaveLength(1);
    expect(pty.modes()).toEqual(expect.arrayContaining(["icanon", "echo", "isig"]));
  });

  it("prints lines, and no escape codes, with --json", async () => {
    const pty = new PtyRun([...handoff, ...COUNT, "--json", ...server]);
    expect(await pty.exited).toBe(0);
    expect(pty.output).not.toContain("\u001b");
    const lines = pty.text.split(/\r?\n/).filter((line) => line.startsWith('{"method"'));
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { method: "notifications/progress", params: { progress: 1, total: 5, message: "Counted 1" } },
      {
        method: "notifications/message",
        params: { level: "warning", logger: "counter", data: "halfway \u001b[31mthere\u001b[0m" },
      },
      ...[2, 3, 4, 5].map((n) => ({
        method: "notifications/progress",
        params: { progress: n, total: 5, message: `Counted ${n}` },
      })),
    ]);
  });
});

describe("in a terminal, a page", () => {
  it.skipIf(missing !== undefined && !process.env.CI)(
    "closes the 'Done in the browser?' question before the result when the retry answers first",
    async () => {
      const pty = new PtyRun([...handoff, "call", "page", "--no-browser", ...server]);
      await pty.waitFor(/Continue\? You will open the page yourself/);
      pty.type("y");
      await pty.waitFor(/Done in the browser\?/);
      // Not answered: the client's own retry finds the page done.
      expect(await pty.exited).toBe(0);
      const text = pty.text;
      expect(text.indexOf("page accept")).toBeGreaterThan(text.indexOf("Done in the browser?"));
      // The question was closed first: the cursor it hid is shown again before the result.
      const output = pty.output;
      expect(output.lastIndexOf("\u001b[?25h")).toBeLessThan(output.indexOf("page accept"));
      expect(output.lastIndexOf("\u001b[?25h")).toBeGreaterThan(output.lastIndexOf("\u001b[?25l"));
      // ... and taken off the screen: the consent answer, then the result, and no question no one can answer.
      const screen = await pty.screen();
      expect(screen.join("\n")).not.toMatch(/Done in the browser|Waiting for you|Yes \/ . No/);
      const result = screen.indexOf("page accept");
      expect(result).toBeGreaterThan(screen.findIndex((row) => row.includes("https://example.com/page?id=3")));
      expect(pty.modes()).toEqual(expect.arrayContaining(["icanon", "echo", "isig"]));
    },
    30_000,
  );

  it.skipIf(missing !== undefined && !process.env.CI)(
    "shows a spinner and the time spent waiting under the question, counting up until the user answers",
    async () => {
      const pty = new PtyRun([...handoff, "call", "connected-slowly", "--no-browser", ...server]);
      try {
        await pty.waitFor(/Continue\? You will open the page yourself/);
        pty.type("y");
        await pty.waitFor(/Done in the browser\?[\s\S]*Waiting for you in the browser: 0s/);
        await pty.waitFor(/Waiting for you in the browser: 2s/);
        // Drawn in place: one question on the screen, its waiting line under it, the time gone up.
        const screen = await pty.screen();
        const question = screen.findIndex((row) => row.includes("Done in the browser?"));
        expect(screen.filter((row) => row.includes("Done in the browser?"))).toHaveLength(1);
        expect(screen[question + 1]).toMatch(/^│ {2}[◒◐◓◑] Waiting for you in the browser: [2-9]s$/);
        expect(screen[question + 2]).toMatch(/Yes \/ . No/);
        // The spinner turned: more than one of its frames was drawn.
        const turns = new Set([...pty.text.matchAll(/([◒◐◓◑]) Waiting for you/g)].map((m) => m[1]));
        expect(turns.size).toBeGreaterThan(1);
        pty.type("\r");
        expect(await pty.exited).toBe(0);
        expect(await pty.screen()).toContain("signed in after a while");
        expect(pty.modes()).toEqual(expect.arrayContaining(["icanon", "echo", "isig"]));
      } finally {
        pty.kill();
      }
    },
    30_000,
  );
});

describe("without a terminal", () => {
  it("prints progress and log messages as plain lines on stderr, the result alone on stdout", async () => {
    const result = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      execFile(
        handoff[0] as string,
        [...handoff.slice(1), ...COUNT, ...server],
        { encoding: "utf8" },
        (error, stdout, stderr) => (error ? reject(error) : resolve({ stdout, stderr })),
      ).stdin?.end();
    });
    expect(result.stdout).toBe("counted to 5\n");
    expect(result.stderr).not.toContain("\u001b");
    expect(result.stderr.split("\n").filter((line) => line !== "")).toEqual([
      "Progress 1/5 (20%): Counted 1",
      "[server warning counter] halfway \\u{1b}[31mthere\\u{1b}[0m",
      "Progress 2/5 (40%): Counted 2",
      "Progress 3/5 (60%): Counted 3",
      "Progress 4/5 (80%): Counted 4",
      "Progress 5/5 (100%): Counted 5",
    ]);
  });
});
