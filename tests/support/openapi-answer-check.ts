import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import { buildOpenApiDocument } from "~/api-description/openapi-document";

// Every /api answer a test app gives is checked against the OpenAPI description (GET
// /api/openapi.json): its status must be listed for the path and method, and its JSON body valid
// against that status' schema. startTestApp's server hands each /api exchange here; a mismatch is
// kept, and tests/support/openapi-answer-setup.ts fails the test during which it happened.

const document = buildOpenApiDocument();
const DOCUMENT_KEY = "openapi.json";

type ResponseObject = { content?: Record<string, { schema: unknown }> };
type Operation = { responses: Record<string, ResponseObject> };

// JSON Schema 2020-12, OpenAPI 3.1's dialect. The document's own keywords (paths, responses) are no
// schema keywords: they are ignored, and only the parts a $ref names are compiled.
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(document as object, DOCUMENT_KEY, undefined, false);

const pathPatterns = Object.keys(document.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+").replaceAll(".", "\\.")}$`),
}));

/** What any /api answer must look like when it is a refusal: the catch-all's 404, a 405. */
const anyRefusal = ajv.compile({
  type: "object",
  required: ["errors"],
  additionalProperties: false,
  properties: { errors: { type: "object", minProperties: 1, additionalProperties: { type: "string" } } },
});

const pointerPart = (part: string) => part.replaceAll("~", "~0").replaceAll("/", "~1");
const validators = new Map<string, ValidateFunction>();

function validatorAt(parts: string[]): ValidateFunction {
  const ref = `${DOCUMENT_KEY}#/${parts.map(pointerPart).join("/")}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  return validate;
}

export type ApiAnswer = {
  method: string;
  url: string;
  status: number;
  contentType: string;
  /** The body as sent, decompressed. */
  body: Buffer;
};

function parseJson(answer: ApiAnswer): { value: unknown } | { problem: string } {
  if (!/^application\/json\b/.test(answer.contentType)) {
    return { problem: `its content type is "${answer.contentType}", not application/json` };
  }
  try {
    return { value: JSON.parse(answer.body.toString("utf8")) };
  } catch {
    return { problem: `its body is not JSON: ${answer.body.toString("utf8").slice(0, 200)}` };
  }
}

const errorsOf = (validate: ValidateFunction) => ajv.errorsText(validate.errors, { dataVar: "body", separator: "; " });

/** What is wrong with this answer by the description, or undefined when it is described. */
export function describeMismatch(answer: ApiAnswer): string | undefined {
  const pathname = answer.url.split("?")[0] ?? "";
  const method = answer.method.toLowerCase() === "head" ? "get" : answer.method.toLowerCase();
  const hasBody = answer.method !== "HEAD" && answer.status !== 204 && answer.status !== 304;
  const path = pathPatterns.find(({ pattern }) => pattern.test(pathname));
  const operation = path
    ? ((document.paths as Record<string, Record<string, Operation>>)[path.template]?.[method] as Operation | undefined)
    : undefined;

  if (!operation) {
    // Not a described operation: only the API's refusals may answer (404 from the catch-all, 405 for
    // another method on a described path), in the error shape.
    const expected = path ? 405 : 404;
    if (answer.status !== expected) {
      return path
        ? `${answer.method} is not described for ${path.template}, and it answered ${answer.status}, not 405`
        : `no path of the description matches, and it answered ${answer.status}, not 404`;
    }
    if (!hasBody) return undefined;
    const json = parseJson(answer);
    if ("problem" in json) return json.problem;
    return anyRefusal(json.value) ? undefined : `its body is not the API's error shape: ${errorsOf(anyRefusal)}`;
  }

  const template = path?.template ?? "";
  const described = operation.responses[String(answer.status)];
  if (!described) {
    return `status ${answer.status} is not listed for ${method.toUpperCase()} ${template} (listed: ${Object.keys(operation.responses).join(", ")})`;
  }
  if (!hasBody) return undefined;
  if (!described.content) {
    return answer.body.length ? `status ${answer.status} is described without a body, but one came` : undefined;
  }
  const json = parseJson(answer);
  if ("problem" in json) return json.problem;
  const validate = validatorAt([
    "paths",
    template,
    method,
    "responses",
    String(answer.status),
    "content",
    "application/json",
    "schema",
  ]);
  return validate(json.value) ? undefined : `its body does not match the described schema: ${errorsOf(validate)}`;
}

const mismatches: string[] = [];

/** The mismatches seen since the last call, each as one line: the request, the status and what is wrong. */
export function takeApiAnswerMismatches(): string[] {
  return mismatches.splice(0);
}

function decompress(body: Buffer, encoding: string): Buffer {
  if (/\bgzip\b/.test(encoding)) return gunzipSync(body);
  if (/\bbr\b/.test(encoding)) return brotliDecompressSync(body);
  if (/\bdeflate\b/.test(encoding)) return inflateSync(body);
  return body;
}

function headerValue(headers: OutgoingHttpHeaders, name: string): string {
  const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value.join(", ") : String(value ?? "");
}

/**
 * Follows what the server writes for an /api request and checks it when it ends. The server's
 * compression wraps these methods in turn, so what arrives here is what goes on the wire.
 */
export function watchApiAnswer(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? "";
  if (!url.startsWith("/api/")) return;
  const chunks: Buffer[] = [];
  let written: OutgoingHttpHeaders = {};
  const collect = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function") return;
    chunks.push(
      typeof chunk === "string"
        ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
        : Buffer.from(chunk as Uint8Array),
    );
  };
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const headers = args.find((arg) => typeof arg === "object" && arg !== null);
    if (headers && !Array.isArray(headers)) written = headers as OutgoingHttpHeaders;
    return (writeHead as (...all: unknown[]) => ServerResponse).apply(this, args);
  } as typeof res.writeHead;
  const write = res.write;
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    collect(chunk, rest[0]);
    return (write as (...all: unknown[]) => boolean).apply(this, [chunk, ...rest]);
  } as typeof res.write;
  const end = res.end;
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    collect(chunk, rest[0]);
    const result = (end as (...all: unknown[]) => ServerResponse).apply(this, [chunk, ...rest]);
    const headers = { ...res.getHeaders(), ...written };
    let mismatch: string | undefined;
    try {
      mismatch = describeMismatch({
        method: req.method ?? "GET",
        url,
        status: res.statusCode,
        contentType: headerValue(headers, "content-type"),
        body: decompress(Buffer.concat(chunks), headerValue(headers, "content-encoding")),
      });
    } catch (error) {
      mismatch = `it could not be checked: ${String(error)}`;
    }
    if (mismatch) mismatches.push(`${req.method} ${url} → ${res.statusCode}: ${mismatch}`);
    return result;
  } as typeof res.end;
}
