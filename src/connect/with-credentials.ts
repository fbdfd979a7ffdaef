/**
 * `withCredentials`: an interaction service with `ctx.credentials` from a credential source, and
 * the one thing that joins them: a page declined before the client's retry (revision 2025-11-25,
 * error -32042) ends that retry declined instead of handing the user off again.
 */

import { InteractionRequired } from "../interaction/server/index.js";
import { SdkError } from "../jsonrpc/errors.js";
import { consoleLogger, type Logger } from "../jsonrpc/logger.js";
import type { UserInteraction } from "../model/interaction.js";
import type { CredentialFetchInit, CredentialSource, InteractionService, RequestContext } from "../server/index.js";
import type { ExpiringNotes } from "../stores/types.js";
import { PageDeclines } from "./page-declines.js";
import { SharedPageDeclines } from "./shared-page-declines.js";

/** Set in the purpose of a hand-off that a retry of the request follows (error -32042), not a wait. */
const RETRIED = "retried";

/**
 * `service` with `credentials` from `source`: give it to `McpServer` as its `interactions` option.
 * A hand-off the request is retried after (revision 2025-11-25, error -32042) that the user
 * declines on the page is reported to the client like a completion, and the retried request's
 * `ctx.credentials.require` for that provider then throws SdkError "REQUEST_CANCELLED" ("The user
 * declined…") instead of handing the user off again: once, before the page's deadline, and only
 * when no credential is stored by then.
 * @param options.now ms since the epoch, the interactions' clock; default `Date.now`.
 * @param options.declines where declines are noted for the retry; default this process's memory.
 *   In a fleet, give the shared notes (`connectRedis(…).notes`), so that a retry landing on
 *   another instance than the page still ends declined.
 * @param options.logger hears a decline that could not be noted (the shared notes failed: the
 *   retry then hands the user off again); default `consoleLogger()`.
 */
export function withCredentials(
  service: InteractionService,
  source: CredentialSource,
  options: { now?: () => number; declines?: ExpiringNotes; logger?: Logger } = {},
): InteractionService {
  const declines =
    options.declines === undefined
      ? new PageDeclines(options.now)
      : new SharedPageDeclines(options.declines, options.now);
  const logger = options.logger ?? consoleLogger();
  // A decline not noted costs the user a second page, never the completion's delivery.
  const note = async (interaction: UserInteraction): Promise<void> => {
    try {
      await declines.note(interaction);
    } catch (error) {
      logger.error({ err: error }, "Could not note a page's decline for the client's retry");
    }
  };
  /**
   * Runs `use`; where it would hand the user off again and the user declined the page of this
   * session's previous call, ends declined instead.
   */
  const handOff = async <T>(provider: string, ctx: RequestContext, use: () => Promise<T>): Promise<T> => {
    try {
      return await use();
    } catch (error) {
      if (!(error instanceof InteractionRequired)) throw error;
      // Only where the user would be handed off again: a credential stored meanwhile (another
      // page of the session saved) is returned, and a decline never outlives its page.
      const declined = await Promise.resolve(declines.take(ctx.session.id, provider)).catch((failure: unknown) => {
        logger.error({ err: failure }, "Could not read the page declines; the user is handed off again");
        return false;
      });
      if (declined) {
        throw new SdkError(
          "REQUEST_CANCELLED",
          `The user declined to connect ${provider} on the page; nothing was stored`,
        );
      }
      // Marked so that a decline on its page is noted for the retry; a waiting request hears of it itself.
      throw new InteractionRequired({
        url: error.url,
        message: error.message,
        purpose: { ...error.purpose, [RETRIED]: true },
      });
    }
  };
  const fetch = source.fetch?.bind(source);
  const credentials: CredentialSource = {
    require: (provider, request, ctx) => handOff(provider, ctx, () => source.require(provider, request, ctx)),
    ...(fetch === undefined
      ? {}
      : {
          fetch: (provider: string, input: string | URL | Request, init: CredentialFetchInit, ctx: RequestContext) =>
            handOff(provider, ctx, () => fetch(provider, input, init, ctx)),
        }),
  };
  return {
    userFor: (authInfo) => service.userFor(authInfo),
    create: (input) => service.create(input),
    get: (id) => service.get(id),
    recordAnswer: (id, action) => service.recordAnswer(id, action),
    waitForCompletion: (id, signal) => service.waitForCompletion(id, signal),
    // The decline is noted before the session tells its client to retry.
    watchSession: (sessionId, listener) =>
      service.watchSession(sessionId, (id, delivered) => {
        // Delivered where it was declined: noted there already (`deliverCompletionsWith` below).
        if (delivered) {
          listener(id, delivered);
          return;
        }
        void service
          .get(id)
          .then(
            (interaction) => {
              if (interaction?.purpose?.[RETRIED] === true && interaction.sessionId === sessionId) {
                return note(interaction);
              }
            },
            // The listener reads the store again, and reports its failure to the server's logger.
            () => {},
          )
          .then(() => listener(id, delivered));
      }),
    ...(service.deliverCompletionsWith === undefined
      ? {}
      : {
          deliverCompletionsWith: (deliver: (interaction: UserInteraction) => Promise<boolean>) =>
            service.deliverCompletionsWith?.(async (interaction) => {
              // Here too the decline is noted before the client is told to retry.
              if (interaction.purpose?.[RETRIED] === true) await note(interaction);
              return deliver(interaction);
            }) ?? (() => {}),
        }),
    credentials,
  };
}
