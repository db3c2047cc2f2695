import { createHash } from "node:crypto";
import type { Route } from "./+types/openapi-json";
import { buildOpenApiDocument } from "./openapi-document";

// Built once per process: the document changes only with the code.
let built: { body: string; etag: string } | undefined;

function openApiJson() {
  if (!built) {
    const body = JSON.stringify(buildOpenApiDocument());
    built = { body, etag: `"openapi-${createHash("sha256").update(body).digest("base64url").slice(0, 16)}"` };
  }
  return built;
}

/** GET /api/openapi.json: the OpenAPI 3.1 description of every /api route, public; 304 when unchanged. */
export function loader({ request }: Route.LoaderArgs) {
  const { body, etag } = openApiJson();
  // As the catalogue's cached reads: a client may keep it but asks each time whether it changed.
  const headers = { ETag: etag, "Cache-Control": "no-cache" };
  if (request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers });
  return new Response(body, { headers: { ...headers, "Content-Type": "application/json; charset=utf-8" } });
}
