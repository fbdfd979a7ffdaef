/**
 * `InputNeeded`: how a handler's call ends when it asked the client for something the request
 * does not answer yet (a multi round-trip request, revision 2026-07-28). Like
 * `InteractionRequired`, it is an answer rather than a failure: the registries pass it on, and the
 * connection turns the round into an `InputRequiredResult`.
 */

/** Thrown by an ask that has no answer yet; the connection turns the round into an `InputRequiredResult`. */
export class InputNeeded extends Error {
  override readonly name = "InputNeeded";
  constructor() {
    super("The request needs input from the client first");
  }
}
