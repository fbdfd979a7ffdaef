/** The resources of the everything server: text, binary, a watched one, and a template. */
import { type McpServer, ResourceTemplate } from "../../src/server/index.js";
import { PNG_BASE64 } from "./fixtures.js";

export function registerResources(server: McpServer): void {
  server.registerResource(
    "Static text resource",
    "test://static-text",
    { description: "A fixed piece of text", mimeType: "text/plain" },
    (uri) => ({
      contents: [{ uri, mimeType: "text/plain", text: "This is the content of the static text resource." }],
    }),
  );

  server.registerResource(
    "Static binary resource",
    "test://static-binary",
    { description: "A 1×1 PNG image", mimeType: "image/png" },
    (uri) => ({ contents: [{ uri, mimeType: "image/png", blob: PNG_BASE64 }] }),
  );

  server.registerResource(
    "Watched resource",
    "test://watched-resource",
    { description: "A resource clients can subscribe to", mimeType: "text/plain" },
    (uri) => ({ contents: [{ uri, mimeType: "text/plain", text: "This resource can be watched for changes." }] }),
  );

  server.registerResource(
    "Template resource",
    new ResourceTemplate("test://template/{id}/data"),
    { description: "JSON data for any id", mimeType: "application/json" },
    (uri, { id }) => ({
      contents: [
        {
          uri,
          mimeType: "application/json",
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${String(id)}` }),
        },
      ],
    }),
  );
}
