import { z } from "zod";
import { textField } from "~/forms/text-schema";
import { idField, parseId } from "~/shared/ids";

// Payloads of the catalogue calls (spec section 7), used by the API and the staff forms alike.

const emptyToNull = (value: unknown) => (value === undefined || value === "" ? null : value);

const optionalId = (message: string) =>
  z.preprocess(emptyToNull, z.union([z.null(), idField(message)], { error: message }));

export const servicePayload = z.object({
  name: textField({ error: "Please enter a name" })
    .min(1, "Please enter a name")
    .max(120, "Names are at most 120 characters"),
  cost_account_code: z.preprocess(
    emptyToNull,
    textField({ error: "Cost account codes are text" })
      .max(40, "Cost account codes are at most 40 characters")
      .nullable(),
  ),
  parent: optionalId("Please choose an existing parent service"),
});
export type ServicePayload = z.infer<typeof servicePayload>;

const CHOOSE_PROVINCE = "Please choose a province";

export const serviceAreaPayload = z.object({
  city: textField({ error: "Please enter a city" })
    .min(1, "Please enter a city")
    .max(120, "City names are at most 120 characters"),
  /** The province's id, or its code (AB, BC, ...). */
  province: z.preprocess(
    emptyToNull,
    z.union([idField(CHOOSE_PROVINCE), textField().toUpperCase().length(2, CHOOSE_PROVINCE)], {
      error: CHOOSE_PROVINCE,
    }),
  ),
  country: z.preprocess(
    (value) => emptyToNull(value) ?? "CA",
    textField({ error: "Service areas are in Canada: country must be CA" }).toUpperCase(),
  ),
});
export type ServiceAreaPayload = z.infer<typeof serviceAreaPayload>;

/** A token's Revoke button on the staff page. */
export const apiTokenRevocation = z.object({
  intent: z.literal("revoke"),
  tokenId: idField("Please choose a token to revoke"),
});

/** The confirmation of a delete: a button, no field (what goes is in the URL). */
export const deletionForm = z.object({});

/** How long a staff API token lasts, in days: the choices of the staff page. */
export const API_TOKEN_LIFETIMES = ["30", "90", "365"] as const;

export const apiTokenForm = z.object({
  name: textField({ error: "Please enter a name for the token" })
    .min(1, "Please enter a name for the token")
    .max(80, "Token names are at most 80 characters"),
  lifetimeDays: z.enum(API_TOKEN_LIFETIMES, { error: "Please choose how long the token lasts" }),
});

const PARENT_QUERY_ERROR = "parent must be a service id";

/** GET /api/services' query: `parent=<id>` for one service's children, `parent=null` (or empty) for the top groups. */
export const serviceListQuery = z.object({
  parent: z
    .union(
      [
        z.literal(["", "null"]).transform(() => null),
        z.string().transform((raw, context) => {
          const id = parseId(raw);
          if (id === undefined) context.addIssue({ code: "custom", message: PARENT_QUERY_ERROR });
          return id ?? z.NEVER;
        }),
      ],
      { error: PARENT_QUERY_ERROR },
    )
    .optional()
    .meta({ description: "A service's id: its children only; `null` or empty: the top groups only" }),
});
