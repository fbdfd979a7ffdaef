/**
 * A step named in `HANDOFF_DEMO_FAIL` fails on purpose, so a test can see that a failure closes
 * everything the story started: `sign-in` (full story: every server and the browser running,
 * before the client signs in) or `connect` (simple story: the server running, before the client
 * connects).
 * @throws Error naming the step and the variable, when it names `step`.
 */
export function failIfAsked(step: "sign-in" | "connect"): void {
  if (process.env.HANDOFF_DEMO_FAIL === step) throw new Error(`${step} failed (HANDOFF_DEMO_FAIL=${step})`);
}
