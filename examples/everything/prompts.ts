/** The prompts of the everything server: plain, with arguments, with a resource, with an image. */
import { z } from "zod";
import type { McpServer } from "../../src/server/index.js";
import { PNG_BASE64 } from "./fixtures.js";

/** Values `completion/complete` offers for the arguments of `test_prompt_with_arguments`. */
const SUGGESTIONS = ["test", "testValue1", "testValue2", "example"];

const suggest = (value: string) => SUGGESTIONS.filter((suggestion) => suggestion.startsWith(value));

export function registerPrompts(server: McpServer): void {
  server.registerPrompt("test_simple_prompt", { description: "A prompt without arguments" }, () => ({
    messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }],
  }));

  server.registerPrompt(
    "test_prompt_with_arguments",
    {
      description: "A prompt that repeats its two arguments",
      argsSchema: {
        arg1: z.string().describe("First test argument"),
        arg2: z.string().describe("Second test argument"),
      },
      complete: { arg1: suggest, arg2: suggest },
    },
    ({ arg1, arg2 }) => ({
      messages: [
        { role: "user", content: { type: "text", text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } },
      ],
    }),
  );

  server.registerPrompt(
    "test_prompt_with_embedded_resource",
    {
      description: "A prompt that embeds a resource",
      argsSchema: { resourceUri: z.string().describe("URI of the resource to embed") },
    },
    ({ resourceUri }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "resource",
            resource: { uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." },
          },
        },
        { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
      ],
    }),
  );

  server.registerPrompt("test_prompt_with_image", { description: "A prompt that shows an image" }, () => ({
    messages: [
      { role: "user", content: { type: "image", data: PNG_BASE64, mimeType: "image/png" } },
      { role: "user", content: { type: "text", text: "Please analyze the image above." } },
    ],
  }));
}
