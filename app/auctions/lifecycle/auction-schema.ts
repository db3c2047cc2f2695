import { z } from "zod";
import { textField } from "~/forms/text-schema";
import { idField } from "~/shared/ids";
import { money, parseDollars } from "~/shared/money";

// The auction form (issue 9): one schema for the browser and the action. Money is typed in dollars
// and kept in cents; times are typed on the user's wall clock (datetime-local) and converted to UTC
// on the server with the user's time zone.

export const MAX_AUCTION_CENTS = 100_000_000_000; // $1,000,000,000.00

const minutes = (label: string, max: number) =>
  z.coerce
    .number({ error: `Please enter the ${label} in whole minutes` })
    .int(`Please enter the ${label} in whole minutes`)
    .min(0, `The ${label} cannot be negative`)
    .max(max, `Please keep the ${label} at most ${max} minutes`);

const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const localTime = (message: string) =>
  textField({ error: message }).regex(LOCAL_TIME, "Please enter a date and time, like 2026-12-01 09:00");

const blankTo =
  <T>(fallback: T) =>
  (value: unknown) =>
    value === undefined || value === null || (typeof value === "string" && value.trim() === "") ? fallback : value;

const percentNumber = (label: string) =>
  z.coerce
    .number({ error: `Please enter the ${label} as a whole number from 0 to 100` })
    .int(`Please enter the ${label} as a whole number from 0 to 100`)
    .min(0, `Please enter the ${label} as a whole number from 0 to 100`)
    .max(100, `Please enter the ${label} as a whole number from 0 to 100`);

export const MAX_REQUIREMENTS = 20;

/** The sealed bid's required documents, one per line: trimmed, blank lines dropped, duplicates once. */
export function requirementLines(text: string | undefined): string[] {
  const seen = new Set<string>();
  return (text ?? "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !seen.has(line.toLowerCase()) && seen.add(line.toLowerCase()) !== undefined);
}

export const auctionFormSchema = z
  .object({
    kind: z.preprocess(
      blankTo("reverse"),
      z.enum(["reverse", "sealed"], { error: "Please choose the kind of auction" }),
    ),
    title: textField({ error: "Please enter a title" })
      .min(1, "Please enter a title")
      .max(200, "Please use at most 200 characters"),
    description: textField({ error: "Please describe the work", multiline: true })
      .min(1, "Please describe the work")
      .max(10_000, "Please use at most 10000 characters"),
    service: idField("Please choose a service category"),
    service_area: idField("Please choose a service area"),
    reserve: money("Please enter the reserve price", { max: MAX_AUCTION_CENTS }),
    decrement_kind: z.enum(["amount", "percent"], { error: "Please choose how bids must go down" }),
    decrement_amount: textField().optional(),
    decrement_percent: textField().optional(),
    starts_at: localTime("Please enter when bidding starts"),
    ends_at: localTime("Please enter when bidding ends"),
    seller_view: z.preprocess(
      blankTo("lowest"),
      z.enum(["lowest", "rank"], { error: "Please choose what sellers see" }),
    ),
    soft_close_window: minutes("soft-close window", 120),
    soft_close_extension: minutes("extension", 120),
    soft_close_cap: minutes("extension cap", 1_440),
    evaluator: z.preprocess(blankTo(undefined), idField("Please choose a consultant from the list").optional()),
    price_weight: z.preprocess(blankTo("100"), percentNumber("price weight")),
    pass_mark: z.preprocess(blankTo(undefined), percentNumber("technical pass mark").optional()),
    requirements: textField({ multiline: true, trim: false })
      .max(4_000, "Please use at most 4000 characters")
      .optional(),
  })
  .superRefine(
    (value, context) => {
      // Runs even when other fields failed (so every problem is reported at once): types are checked.
      const reserve = typeof value.reserve === "number" ? value.reserve : Number.POSITIVE_INFINITY;
      if (value.kind === "sealed") {
        const lines = requirementLines(value.requirements);
        if (lines.length === 0) {
          context.addIssue({
            code: "custom",
            path: ["requirements"],
            message: "Please list the documents each bid must carry, one per line",
          });
        } else if (lines.length > MAX_REQUIREMENTS || lines.some((line) => line.length > 100)) {
          context.addIssue({
            code: "custom",
            path: ["requirements"],
            message: `Please list at most ${MAX_REQUIREMENTS} documents of at most 100 characters each`,
          });
        }
      } else {
        const issue = decrementIssue({ ...value, reserve });
        if (issue) context.addIssue({ code: "custom", ...issue });
      }
      if (
        typeof value.ends_at === "string" &&
        typeof value.starts_at === "string" &&
        value.ends_at <= value.starts_at
      ) {
        context.addIssue({ code: "custom", path: ["ends_at"], message: "Bidding must end after it starts" });
      }
    },
    { when: () => true },
  );

/** What is wrong with the decrement as typed (at its field), or null when it is right for the reserve. */
export function decrementIssue(value: Parameters<typeof decrementValueOf>[0]) {
  if (decrementValueOf(value) !== null) return null;
  const amount = value.decrement_kind === "amount";
  const cents = amount ? parseDollars(value.decrement_amount ?? "") : null;
  return {
    path: [amount ? "decrement_amount" : "decrement_percent"],
    message: !amount
      ? "Please enter a percentage between 0.01 and 50"
      : cents !== null && cents >= 1
        ? "The minimum decrement must be less than the reserve price"
        : "Please enter the minimum decrement in dollars and cents, like 100.00",
  };
}

/** The decrement in the auction's unit (cents, or basis points for a percentage), or null when invalid. */
export function decrementValueOf(value: {
  decrement_kind: "amount" | "percent";
  decrement_amount?: string | undefined;
  decrement_percent?: string | undefined;
  reserve: number;
}): number | null {
  if (value.decrement_kind === "amount") {
    const cents = parseDollars(value.decrement_amount ?? "");
    return cents !== null && cents >= 1 && cents < value.reserve ? cents : null;
  }
  const text = value.decrement_percent ?? "";
  const percent = Number(text);
  if (!/^\d{1,2}(\.\d{1,2})?$/.test(text) || percent < 0.01 || percent > 50) return null;
  return Math.round(percent * 100);
}

/** The form's values once the schema has read them. */
export type AuctionFormValue = z.infer<typeof auctionFormSchema>;
