/**
 * Runs the `handoff` executable in a real pseudo-terminal (util-linux `script`) and replays what it
 * drew through a terminal emulator (`@xterm/headless`), so that a test sees the screen a person
 * would: the frames as they were drawn, and what is left once the command is over.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { stripVTControlCharacters } from "node:util";
import xterm from "@xterm/headless";

export const COLUMNS = 100;
const ROWS = 40;

/** Why the pseudo-terminal tests cannot run here, or `undefined` when they can. */
export function ptyMissing(): string | undefined {
  if (process.platform === "win32") return "no pseudo-terminals through `script` on Windows";
  const found = spawnSync("script", ["--version"], { encoding: "utf8" });
  return found.status === 0 && /util-linux/.test(found.stdout) ? undefined : "util-linux `script` is not installed";
}

function quote(arg: string): string {
  return `'${arg.replaceAll("'", "'\\''")}'`;
}

export class PtyRun {
  private raw = "";
  private readonly child: ChildProcess;
  /** The command's exit code, once it has ended. */
  readonly exited: Promise<number>;

  /** Starts `argv` in a terminal of {@link COLUMNS} columns; after it ends, the terminal's modes are printed. */
  constructor(argv: string[]) {
    const command = argv.map(quote).join(" ");
    const line = `stty cols ${COLUMNS} rows ${ROWS}; ${command}; code=$?; printf '\\n[modes %s]\\n' "$(stty -a | tr -s ' ;\\n' '\\n\\n\\n' | grep -xE -- '-?(icanon|echo|isig)' | tr '\\n' ' ')"; exit $code`;
    const env: NodeJS.ProcessEnv = { ...process.env, TERM: "xterm-256color" };
    // A CI environment makes the prompt library draw for logs instead of a terminal.
    delete env.CI;
    this.child = spawn("script", ["-qfec", line, "/dev/null"], { env, stdio: ["pipe", "pipe", "inherit"] });
    this.child.stdout?.setEncoding("utf8");
    this.child.stdout?.on("data", (chunk: string) => {
      this.raw += chunk;
      this.check();
    });
    this.exited = new Promise((resolve) => this.child.once("close", (code) => resolve(code ?? -1)));
  }

  private waiters: { pattern: RegExp; resolve: () => void }[] = [];

  private check(): void {
    const text = this.text;
    this.waiters = this.waiters.filter((waiter) => {
      if (!waiter.pattern.test(text)) return true;
      waiter.resolve();
      return false;
    });
  }

  /** Everything written to the terminal so far, escape sequences included. */
  get output(): string {
    return this.raw;
  }

  /** What was written, without escape sequences. */
  get text(): string {
    return stripVTControlCharacters(this.raw);
  }

  /** Resolves once the text written matches `pattern`. */
  waitFor(pattern: RegExp): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push({ pattern, resolve });
      this.check();
    });
  }

  /** Types `keys` at the terminal. */
  type(keys: string): void {
    this.child.stdin?.write(keys);
  }

  /** The screen once everything written so far has been drawn: its rows, trailing blanks trimmed. */
  async screen(): Promise<string[]> {
    const terminal = new xterm.Terminal({ cols: COLUMNS, rows: ROWS, allowProposedApi: true });
    await new Promise<void>((resolve) => terminal.write(this.raw.replaceAll(/\r?\n/g, "\r\n"), resolve));
    const buffer = terminal.buffer.active;
    const rows: string[] = [];
    for (let y = 0; y < buffer.length; y++) rows.push(buffer.getLine(y)?.translateToString(true) ?? "");
    terminal.dispose();
    while (rows.at(-1) === "") rows.pop();
    return rows;
  }

  /** The terminal's modes after the command ended, as `stty` lists them: `icanon`, `-echo`... */
  modes(): string[] {
    return /\[modes ([^\]]*)\]/.exec(this.text)?.[1]?.trim().split(/\s+/) ?? [];
  }

  kill(): void {
    this.child.kill("SIGKILL");
  }
}
