import { z } from "zod";
import {
  messageAnswer,
  setupAccountPayload,
  signedInAnswer,
  tokenSetPasswordPayload,
  usableTokenAnswer,
  verifyTokenPayload,
} from "~/accounts/api/api-schema";
import { forgotPasswordSchema, signInSchema } from "~/accounts/schemas";
import { serviceAreaPayload, serviceListQuery, servicePayload } from "~/catalogue/catalogue-schema";
import {
  checkboxService,
  provinceView,
  serviceAnswer,
  serviceAreaAnswer,
  serviceAreaCheckboxesAnswer,
  serviceAreaListAnswer,
  serviceAreaView,
  serviceCheckboxesAnswer,
  serviceListAnswer,
  serviceView,
} from "~/catalogue/catalogue-views";
import { SESSION_COOKIE_NAME } from "~/platform/session-cookie";
import {
  accessTokenAnswer,
  accessTokenStateAnswer,
  codeSentAnswer,
  privacyPolicyAcceptedAnswer,
  registrationAnswer,
  termsAcceptedAnswer,
} from "~/registration/api/registration-api-schema";
import { buyerRegistrationSchema } from "~/registration/form/registration-data";
import { createSellerRegistrationSchema } from "~/registration/seller-form/seller-registration-schema";
import { accessTokenPayload, requestCodePayload, verifyCodePayload } from "~/registration/signup/signup-schema";

// The OpenAPI 3.1 description of every /api route (GET /api/openapi.json), generated from the Zod
// schemas the routes themselves parse their requests with and build their answers to, so it cannot
// drift from them; every /api answer the integration tests receive is checked against it
// (tests/support/openapi-answer-check.ts).

/** The answers every route shares: the ones a status means, and when. */
const COMMON_ERRORS = {
  400: "The body cannot be read (malformed JSON, invalid UTF-8, not an object) or a field is refused; `errors` names each field",
  403: "A write sent from another site (its Origin or Referer is not this site's)",
  413: "The body is over 1 MB",
  415: "The body is neither JSON nor form-encoded",
} as const;

type Method = "get" | "post" | "put" | "delete";
type ErrorStatus = 304 | 400 | 401 | 402 | 403 | 404 | 409 | 413 | 415 | 429 | 503;

type ApiOperation = {
  method: Method;
  path: string;
  tag: "Account" | "Registration" | "Catalogue" | "API description";
  summary: string;
  /** Staff only: a staff session or a staff API token. */
  staff?: boolean;
  /** The body's schema (its input side: what a client sends). */
  body?: z.ZodType;
  /** Bodies with nested objects and lists can only be JSON. */
  jsonOnly?: boolean;
  query?: z.ZodObject;
  pathId?: string;
  /** The success answers: status, what it means and its body's schema (none: no body). */
  success: { status: 200 | 201 | 204; description: string; schema?: string; headers?: Record<string, string> }[];
  /** Each error status the route answers, with what it means. */
  errors: Partial<Record<ErrorStatus, string>>;
  /** The names `errors` may hold; `"any"`: nested fields too (`primaryContact.email`). */
  errorFields: string[] | "any";
};

/** The answers' schemas, by the name the document gives them. */
const ANSWERS: Record<string, z.ZodType> = {
  Service: serviceView,
  ServiceArea: serviceAreaView,
  Province: provinceView,
  CheckboxService: checkboxService,
  ServiceList: serviceListAnswer,
  ServiceAnswer: serviceAnswer,
  ServiceAreaList: serviceAreaListAnswer,
  ServiceAreaAnswer: serviceAreaAnswer,
  ServiceCheckboxes: serviceCheckboxesAnswer,
  ServiceAreaCheckboxes: serviceAreaCheckboxesAnswer,
  SignedIn: signedInAnswer,
  Message: messageAnswer,
  UsableToken: usableTokenAnswer,
  CodeSent: codeSentAnswer,
  AccessToken: accessTokenAnswer,
  AccessTokenState: accessTokenStateAnswer,
  PrivacyPolicyAccepted: privacyPolicyAcceptedAnswer,
  TermsAccepted: termsAcceptedAnswer,
  Registration: registrationAnswer,
};

const fieldsOf = (schema: z.ZodType, ...more: string[]) => [
  ...Object.keys((schema as z.ZodObject).shape),
  ...more,
  "form",
];

const bodyErrors = {
  400: COMMON_ERRORS[400],
  403: COMMON_ERRORS[403],
  413: COMMON_ERRORS[413],
  415: COMMON_ERRORS[415],
};
const staffErrors = {
  401: "No staff session and no live staff API token",
  403: "Signed in, but not as staff (or a write from another site)",
};
const LINK_REFUSED = "The link's token is unknown, used or expired ('Please check the link and try again.')";
const ACCESS_TOKEN_REFUSED = "The access token is unknown, used or expired ('Invalid access token.')";
const CATALOGUE_CONFLICT = "A duplicate name, or an item still in use";

function catalogueOperations(item: {
  path: string;
  singular: string;
  plural: string;
  payload: z.ZodType;
  list: string;
  one: string;
  query?: z.ZodObject;
}): ApiOperation[] {
  const tag = "Catalogue";
  const itemPath = `${item.path}/{id}`;
  const writeFields = fieldsOf(item.payload);
  return [
    {
      method: "get",
      path: item.path,
      tag,
      summary: `Every ${item.singular}`,
      query: item.query,
      success: [{ status: 200, description: `The ${item.plural}`, schema: item.list }],
      errors: item.query ? { 400: "A query parameter is refused" } : {},
      errorFields: item.query ? Object.keys(item.query.shape) : [],
    },
    {
      method: "post",
      path: item.path,
      tag,
      summary: `Creates a ${item.singular}`,
      staff: true,
      body: item.payload,
      success: [{ status: 201, description: `The new ${item.singular}`, schema: item.one }],
      errors: { ...bodyErrors, ...staffErrors, 409: CATALOGUE_CONFLICT },
      errorFields: writeFields,
    },
    {
      method: "get",
      path: itemPath,
      tag,
      summary: `One ${item.singular}`,
      pathId: `The ${item.singular}'s id`,
      success: [{ status: 200, description: `The ${item.singular}`, schema: item.one }],
      errors: { 404: "No such item ('Not found.')" },
      errorFields: [],
    },
    {
      method: "put",
      path: itemPath,
      tag,
      summary: `Changes a ${item.singular}`,
      staff: true,
      pathId: `The ${item.singular}'s id`,
      body: item.payload,
      success: [{ status: 200, description: `The ${item.singular} as changed`, schema: item.one }],
      errors: { ...bodyErrors, ...staffErrors, 404: "No such item ('Not found.')", 409: CATALOGUE_CONFLICT },
      errorFields: writeFields,
    },
    {
      method: "delete",
      path: itemPath,
      tag,
      summary: `Deletes a ${item.singular}`,
      staff: true,
      pathId: `The ${item.singular}'s id`,
      success: [{ status: 204, description: "Deleted" }],
      errors: { ...staffErrors, 404: "No such item ('Not found.')", 409: CATALOGUE_CONFLICT },
      errorFields: [],
    },
  ];
}

const registrationSubmit = (who: string, body: z.ZodType, extra: Partial<Record<ErrorStatus, string>> = {}) => ({
  method: "post" as const,
  tag: "Registration" as const,
  summary: `Submits a ${who}'s registration (spec section 3's data, contacts and lists by their API names)`,
  body,
  jsonOnly: true,
  success: [
    { status: 201 as const, description: "Registered; staff review it", schema: "Registration" },
    {
      status: 200 as const,
      description: "The same data sent again with the same token: the first registration",
      schema: "Registration",
    },
  ],
  errors: {
    ...bodyErrors,
    404: ACCESS_TOKEN_REFUSED,
    409: "The access token was used for other data, or the privacy policy and terms are not accepted yet",
    ...extra,
  },
  errorFields: "any" as const,
});

/** Every /api operation but the catch-all (any other /api path answers 404 in the same error shape). */
export const API_OPERATIONS: ApiOperation[] = [
  {
    method: "post",
    path: "/api/account/login",
    tag: "Account",
    summary: "Signs in: answers the user and sets the session cookie",
    body: signInSchema,
    success: [
      {
        status: 200,
        description: "Signed in",
        schema: "SignedIn",
        headers: { "Set-Cookie": `The session cookie (${SESSION_COOKIE_NAME})` },
      },
    ],
    errors: {
      ...bodyErrors,
      401: "Wrong e-mail or password ('Invalid username or password.')",
      429: "Too many failed attempts; `Retry-After` says when to try again",
    },
    errorFields: fieldsOf(signInSchema),
  },
  {
    method: "post",
    path: "/api/account/send_password_reset",
    tag: "Account",
    summary: "E-mails a password reset link (the same answer whether or not the account exists)",
    body: forgotPasswordSchema,
    success: [{ status: 200, description: "'Password Reset Request Sent!'", schema: "Message" }],
    errors: { ...bodyErrors, 429: "Too many reset requests for this account or address" },
    errorFields: fieldsOf(forgotPasswordSchema),
  },
  {
    method: "post",
    path: "/api/account/verify_password_reset_token",
    tag: "Account",
    summary: "Whether a reset, set-password or account-setup link's token is usable, and its purpose",
    body: verifyTokenPayload,
    success: [{ status: 200, description: "Usable", schema: "UsableToken" }],
    errors: { ...bodyErrors, 404: LINK_REFUSED },
    errorFields: fieldsOf(verifyTokenPayload),
  },
  {
    method: "post",
    path: "/api/account/token_set_password",
    tag: "Account",
    summary: "Sets the password with a reset or set-password link's token",
    body: tokenSetPasswordPayload,
    success: [{ status: 200, description: "'Password set!'", schema: "Message" }],
    errors: { ...bodyErrors, 404: LINK_REFUSED },
    errorFields: fieldsOf(tokenSetPasswordPayload),
  },
  {
    method: "post",
    path: "/api/account/setup_account",
    tag: "Account",
    summary: "Sets up an invited account: its password and timezone, with the account-setup link's token",
    body: setupAccountPayload,
    success: [{ status: 200, description: "Set up", schema: "Message" }],
    errors: { ...bodyErrors, 404: LINK_REFUSED },
    errorFields: fieldsOf(setupAccountPayload),
  },
  ...catalogueOperations({
    path: "/api/services",
    singular: "service",
    plural: "services",
    payload: servicePayload,
    list: "ServiceList",
    one: "ServiceAnswer",
    query: serviceListQuery,
  }),
  {
    method: "get",
    path: "/api/service_checkboxes",
    tag: "Catalogue",
    summary: "The service tree: top groups, each with its sub-services, each with theirs",
    success: [{ status: 200, description: "The tree", schema: "ServiceCheckboxes" }],
    errors: { 304: "Unchanged since the `ETag` sent in `If-None-Match`" },
    errorFields: [],
  },
  ...catalogueOperations({
    path: "/api/service_areas",
    singular: "service area",
    plural: "service areas",
    payload: serviceAreaPayload,
    list: "ServiceAreaList",
    one: "ServiceAreaAnswer",
  }),
  {
    method: "get",
    path: "/api/service_area_checkboxes",
    tag: "Catalogue",
    summary: "The service areas' cities and the provinces they are grouped under",
    success: [{ status: 200, description: "The cities and provinces", schema: "ServiceAreaCheckboxes" }],
    errors: { 304: "Unchanged since the `ETag` sent in `If-None-Match`" },
    errorFields: [],
  },
  {
    method: "post",
    path: "/api/registration/request_code",
    tag: "Registration",
    summary: "Texts an access code to the applicant's mobile number",
    body: requestCodePayload,
    success: [{ status: 200, description: "Sent, to the number in E.164", schema: "CodeSent" }],
    errors: { ...bodyErrors, 429: "Too many codes sent to this number or from this address (under `mobileNumber`)" },
    errorFields: fieldsOf(requestCodePayload),
  },
  {
    method: "post",
    path: "/api/registration/verify_code",
    tag: "Registration",
    summary: "Exchanges the texted code for an access token",
    body: verifyCodePayload,
    success: [{ status: 200, description: "The access token", schema: "AccessToken" }],
    errors: bodyErrors,
    errorFields: fieldsOf(verifyCodePayload),
  },
  {
    method: "post",
    path: "/api/registration/verify_access_token",
    tag: "Registration",
    summary: "Whether an access token is usable, and how far its applicant got",
    body: accessTokenPayload,
    success: [{ status: 200, description: "Usable", schema: "AccessTokenState" }],
    errors: { ...bodyErrors, 404: ACCESS_TOKEN_REFUSED },
    errorFields: fieldsOf(accessTokenPayload),
  },
  {
    method: "post",
    path: "/api/registration/accept_privacy_policy",
    tag: "Registration",
    summary: "Records that the applicant accepted the privacy policy",
    body: accessTokenPayload,
    success: [{ status: 200, description: "Accepted", schema: "PrivacyPolicyAccepted" }],
    errors: { ...bodyErrors, 404: ACCESS_TOKEN_REFUSED },
    errorFields: fieldsOf(accessTokenPayload),
  },
  {
    method: "post",
    path: "/api/registration/accept_terms_and_conditions",
    tag: "Registration",
    summary: "Records that the applicant accepted the terms (after the privacy policy)",
    body: accessTokenPayload,
    success: [{ status: 200, description: "Accepted: the organization type to register", schema: "TermsAccepted" }],
    errors: { ...bodyErrors, 404: ACCESS_TOKEN_REFUSED, 409: "The privacy policy is not accepted yet" },
    errorFields: fieldsOf(accessTokenPayload),
  },
  { ...registrationSubmit("buyer", buyerRegistrationSchema), path: "/api/registration/register_buyer" },
  { ...registrationSubmit("consultant", buyerRegistrationSchema), path: "/api/registration/register_consultant" },
  {
    ...registrationSubmit("seller", createSellerRegistrationSchema(), {
      402: "The card was refused (the provider's message under `card`)",
      503: "The card provider cannot be reached (under `card`)",
    }),
    summary:
      "Submits a seller's registration (spec section 3's data) with the card token from the provider's browser library as `stripe_payment_token`",
    path: "/api/registration/register_seller",
  },
  {
    method: "get",
    path: "/api/openapi.json",
    tag: "API description",
    summary: "This description (OpenAPI 3.1)",
    success: [{ status: 200, description: "The document", schema: "OpenApiDocument" }],
    errors: { 304: "Unchanged since the `ETag` sent in `If-None-Match`" },
    errorFields: [],
  },
];

type JsonSchema = Record<string, unknown>;

/** A Zod schema as JSON Schema 2020-12, without the `$schema` line (the document says which). */
function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  if (io === "input" && schema instanceof z.ZodObject) {
    // Fields read through z.preprocess (an empty or missing value taken as null, or a default) come
    // out required or not by what they preprocess into: ask each field whether it may be left out.
    const shape = schema.shape as Record<string, z.ZodType>;
    const required = Object.keys(shape).filter((name) => !shape[name]?.safeParse(undefined).success);
    if (required.length) rest.required = required;
    else delete rest.required;
  }
  return rest;
}

/** A form's fields are all text: the same names, each a string. */
function formSchemaOf(json: JsonSchema): JsonSchema {
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  return {
    type: "object",
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [
        name,
        { type: "string", ...(property.description ? { description: property.description } : {}) },
      ]),
    ),
    required: json.required ?? [],
  };
}

/** `{"errors": {"<field or 'form'>": "<message>"}}` with the fields this operation may name. */
function errorBodySchema(fields: string[] | "any"): JsonSchema {
  const text = { type: "string" };
  return {
    type: "object",
    required: ["errors"],
    additionalProperties: false,
    properties: {
      errors: {
        type: "object",
        minProperties: 1,
        properties: Object.fromEntries([...(fields === "any" ? [] : fields), "form"].map((field) => [field, text])),
        additionalProperties: fields === "any" ? text : false,
      },
    },
  };
}

function operationObject(operation: ApiOperation): JsonSchema {
  const responses: Record<string, JsonSchema> = {};
  for (const success of operation.success) {
    responses[String(success.status)] = {
      description: success.description,
      ...(success.headers
        ? {
            headers: Object.fromEntries(
              Object.entries(success.headers).map(([name, description]) => [
                name,
                { description, schema: { type: "string" } },
              ]),
            ),
          }
        : {}),
      ...(success.schema
        ? { content: { "application/json": { schema: { $ref: `#/components/schemas/${success.schema}` } } } }
        : {}),
    };
  }
  const errorBody = { "application/json": { schema: errorBodySchema(operation.errorFields) } };
  for (const [status, description] of Object.entries(operation.errors)) {
    if (status === "304") {
      responses[status] = { description };
      continue;
    }
    const headers: Record<string, JsonSchema> = {};
    if (status === "401") headers["WWW-Authenticate"] = { description: "`Bearer`", schema: { type: "string" } };
    if (status === "429") {
      headers["Retry-After"] = { description: "Seconds to wait", schema: { type: "string", pattern: "^\\d+$" } };
    }
    responses[status] = {
      description,
      ...(Object.keys(headers).length ? { headers } : {}),
      content: errorBody,
    };
  }

  const parameters: JsonSchema[] = [];
  if (operation.pathId) {
    parameters.push({
      name: "id",
      in: "path",
      required: true,
      description: operation.pathId,
      schema: { type: "string", pattern: "^[1-9][0-9]{0,9}$" },
    });
  }
  if (operation.query) {
    const query = jsonSchemaOf(operation.query, "input");
    const required = new Set((query.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((query.properties ?? {}) as Record<string, JsonSchema>)) {
      const { description, ...rest } = schema;
      parameters.push({ name, in: "query", required: required.has(name), description, schema: rest });
    }
  }

  let requestBody: JsonSchema | undefined;
  if (operation.body) {
    const json = jsonSchemaOf(operation.body, "input");
    requestBody = {
      required: true,
      content: {
        "application/json": { schema: json },
        ...(operation.jsonOnly ? {} : { "application/x-www-form-urlencoded": { schema: formSchemaOf(json) } }),
      },
    };
  }

  return {
    tags: [operation.tag],
    summary: operation.summary,
    operationId: `${operation.method}${operation.path.replace(/[^a-z0-9]+(.)?/gi, (_match, next: string | undefined) => (next ?? "").toUpperCase())}`,
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
    ...(operation.staff ? { security: [{ staffApiToken: [] }, { sessionCookie: [] }] } : {}),
  };
}

/** The answers' schemas as the document's components: one registry, so shared and recursive ones are references. */
function componentSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(ANSWERS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io: "output",
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  const components: Record<string, JsonSchema> = {};
  for (const [id, { $schema: _dialect, $id: _id, ...schema }] of Object.entries(schemas)) components[id] = schema;
  components.OpenApiDocument = {
    type: "object",
    required: ["openapi", "info", "paths"],
    properties: { openapi: { type: "string" } },
  };
  return components;
}

/** The OpenAPI 3.1 document of every /api route. */
export function buildOpenApiDocument() {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const operation of API_OPERATIONS) {
    paths[operation.path] ??= {};
    (paths[operation.path] as Record<string, JsonSchema>)[operation.method] = operationObject(operation);
  }
  return {
    openapi: "3.1.1",
    info: {
      title: "Upstream Marketplace API",
      version: "1",
      description:
        "The calls under /api (specification section 7). Requests are JSON or form-encoded (registrations: JSON only), at most 1 MB. " +
        'Every refusal is a 4xx with `{"errors": {"<field or form>": "<message>"}}`; any other /api path answers 404 so. ' +
        "Catalogue reads are public; catalogue writes need a staff session or a staff API token (made by staff at /staff/api-tokens).",
    },
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    tags: [
      { name: "Account", description: "Signing in and password links" },
      { name: "Registration", description: "An applicant's steps from the access code to the submitted registration" },
      { name: "Catalogue", description: "Services and service areas" },
      { name: "API description", description: "This document" },
    ],
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        staffApiToken: {
          type: "http",
          scheme: "bearer",
          description: "A staff API token (`umk_…`), made and revoked by staff at /staff/api-tokens",
        },
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: SESSION_COOKIE_NAME,
          description:
            "The session cookie POST /api/account/login or the sign-in page sets (a staff user's, for writes)",
        },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
