/**
 * The local connect pages, rendered through the connect pages' templates (same layout, escaping,
 * CSP and Decline) with `local: true`: there is no login here, so a page names the server running
 * on this computer where a hosted one names the account, and says the secret stays there.
 */
import type { UserInteraction } from "../../model/interaction.js";
import { type FormSpec, notice, type PageFrame } from "../pages.js";
import { type NoticeKind, type PageTheme, renderPage } from "../templates/index.js";

/** What the pages of `interaction` show beside their own part: the ask and the client, as it names itself. */
export function localFrame(theme: PageTheme, interaction: UserInteraction): PageFrame {
  return { theme, local: true, message: interaction.message, client: interaction.clientName };
}

/** A page that says what happened; without an interaction it names nothing of any link. */
export function localNotice(kind: NoticeKind, frame: PageFrame | PageTheme): Response {
  return "css" in frame ? notice(kind, { theme: frame, local: true }) : notice(kind, frame);
}

/** The form where the user enters a secret for the server on this computer, with Decline beside Save. */
export function localSecretForm(
  frame: PageFrame,
  secret: { provider: string; label: string },
  forms: { save: FormSpec; decline: FormSpec },
): Response {
  return renderPage({ kind: "secret", ...frame, ...secret, form: forms.save, decline: forms.decline });
}
