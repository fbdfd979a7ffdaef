/** What the demo's client shows before it lets the user open a server's URL. */
import { confirm, isCancel } from "@clack/prompts";

export function describeUrlRequest(
  server: { name: string; title?: string | undefined },
  params: { url: string; message: string },
): string[] {
  const url = new URL(params.url);
  return [
    `${server.title ?? server.name} asks you to open a page: "${params.message}"`,
    `  full URL: ${params.url}`,
    `  host:     ${url.host}${url.protocol === "https:" ? "" : "  (not https: acceptable only on this machine)"}`,
  ];
}

export async function askConsentAtTerminal(): Promise<boolean> {
  const answer = await confirm({ message: "Open this page?" });
  return !isCancel(answer) && answer === true;
}
