/** Test doubles for the command's io: captured output, scripted prompt answers, a recording opener. */
import type { CliIo } from "../../src/cli/io.js";
import {
  CANCELLED,
  type Cancelled,
  type ConfirmPrompt,
  type MultiSelectPrompt,
  type Prompter,
  type SelectPrompt,
  type TextPrompt,
} from "../../src/cli/prompter.js";

export type Asked =
  | { kind: "text"; prompt: TextPrompt }
  | { kind: "confirm"; prompt: ConfirmPrompt }
  | { kind: "select"; prompt: SelectPrompt }
  | { kind: "multiselect"; prompt: MultiSelectPrompt };

/** One scripted answer: a value, CANCELLED, or a function of the prompt (to exercise `validate`). */
export type Answer = string | boolean | string[] | Cancelled | ((asked: Asked) => unknown);

/** Answers prompts in order and records what was asked; fails the test when it runs out of answers. */
export class ScriptedPrompter implements Prompter {
  readonly asked: Asked[] = [];
  constructor(private readonly answers: Answer[]) {}

  private next(asked: Asked): unknown {
    this.asked.push(asked);
    if (this.answers.length === 0) throw new Error(`No scripted answer for ${asked.kind} "${asked.prompt.message}"`);
    const answer = this.answers.shift();
    return typeof answer === "function" ? answer(asked) : answer;
  }

  async text(prompt: TextPrompt) {
    return this.next({ kind: "text", prompt }) as string | Cancelled;
  }
  async confirm(prompt: ConfirmPrompt) {
    return this.next({ kind: "confirm", prompt }) as boolean | Cancelled;
  }
  async select(prompt: SelectPrompt) {
    return this.next({ kind: "select", prompt }) as string | Cancelled;
  }
  async multiselect(prompt: MultiSelectPrompt) {
    return this.next({ kind: "multiselect", prompt }) as string[] | Cancelled;
  }
}

export interface FakeIo extends CliIo {
  out: () => string;
  err: () => string;
  opened: string[];
  prompter: ScriptedPrompter;
}

/** An io with captured streams; `interactive` defaults to true. */
export function fakeIo(answers: Answer[] = [], overrides: Partial<CliIo> = {}): FakeIo {
  let out = "";
  let err = "";
  const opened: string[] = [];
  return {
    stdout: (text) => {
      out += text;
    },
    stderr: (text) => {
      err += text;
    },
    prompter: new ScriptedPrompter(answers),
    open: async (url) => {
      opened.push(url);
    },
    interactive: true,
    ...overrides,
    out: () => out,
    err: () => err,
    opened,
  } as FakeIo;
}

export { CANCELLED };
