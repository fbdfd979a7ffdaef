/**
 * URL-mode elicitation as a hand-off source (spec 2025-11-25: client/elicitation): a URL-mode
 * `elicitation/create` during a request, a -32042 error listing URL-mode elicitations, and
 * `notifications/elicitation/complete`; in the stateless era (2026-07-28), a URL-mode
 * elicitation inside an `InputRequiredResult`, whose completion the retry learns.
 */
import { type ElicitationHandler, type McpClient, UrlElicitationRequiredError } from "../../client/index.js";
import type { ReceivedHandoff } from "./interaction.js";
import type { HandoffHost, HandoffSource } from "./sources.js";

export class UrlElicitationSource implements HandoffSource {
  /** @param formHandler answers form-mode elicitations too; without it only URL mode is declared. */
  constructor(private readonly formHandler?: ElicitationHandler) {}

  /**
   * Sets the client's elicitation handler (replacing any earlier one) and chains its
   * `onElicitationComplete`: a hook set before this runs keeps being called.
   */
  install(client: McpClient, host: HandoffHost): void {
    const formHandler = this.formHandler;
    client.setElicitationHandler(
      async (params, ctx) => {
        if (params.mode !== "url") {
          return formHandler ? formHandler(params, ctx) : { action: "decline" };
        }
        const handoff: ReceivedHandoff = {
          kind: "elicitation",
          id: params.elicitationId,
          url: params.url,
          message: params.message,
        };
        if (ctx.input !== undefined)
          return { action: await host.presentInRound(handoff, ctx.input.waiting, ctx.signal) };
        return { action: await host.present(handoff, ctx.signal) };
      },
      { modes: formHandler ? ["form", "url"] : ["url"] },
    );
    const earlier = client.onElicitationComplete;
    client.onElicitationComplete = (elicitationId) => {
      host.complete(elicitationId);
      earlier?.(elicitationId);
    };
  }

  required(error: unknown): ReceivedHandoff[] | undefined {
    if (!(error instanceof UrlElicitationRequiredError)) return undefined;
    return error.elicitations.map(({ elicitationId, url, message }) => ({
      kind: "elicitation",
      id: elicitationId,
      url,
      message,
    }));
  }
}
