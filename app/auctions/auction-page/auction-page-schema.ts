import { z } from "zod";
import { DISALLOWED_CHARACTERS, textField } from "~/forms/text-schema";
import { parseDollars } from "~/shared/money";

// The forms of the auction page, one per button, told apart by `intent`: publish, back to draft,
// cancel (with its reason), accept the terms, bid, and the secret minimum. One schema for the
// action and the browser.

export const CANCEL_REASON_REQUIRED = "Please say why the auction is cancelled";
export const CHOOSE_WHAT_TO_DO = "Please choose what to do.";
export const AMOUNT_FORMAT = "Please enter an amount in dollars and cents, like 12500.00";
const BID_MISSING = "Please enter your bid";
const MINIMUM_MISSING = "Please enter your minimum";
const DOLLARS_MESSAGES = new Set([AMOUNT_FORMAT, BID_MISSING, MINIMUM_MISSING]);

/** Dollars and cents as typed (at most 40 characters), in cents. */
const dollars = (missing: string) =>
  z
    .string()
    .max(40)
    .default("")
    .transform((typed, context) => {
      const cents = parseDollars(typed);
      if (cents !== null && cents >= 1) return cents;
      context.addIssue({ code: "custom", message: typed.trim() ? AMOUNT_FORMAT : missing });
      return z.NEVER;
    });

export const auctionPageSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("publish") }),
  z.object({ intent: z.literal("withdraw") }),
  z.object({
    intent: z.literal("cancel"),
    reason: textField({ error: CANCEL_REASON_REQUIRED, multiline: true }).min(1, CANCEL_REASON_REQUIRED).max(2000),
    confirm: z.literal("yes").optional(),
  }),
  z.object({ intent: z.literal("accept-terms") }),
  z.object({ intent: z.literal("bid"), amount: dollars(BID_MISSING), confirm: z.literal("yes").optional() }),
  z.object({ intent: z.literal("auto-bid"), minimum: dollars(MINIMUM_MISSING) }),
]);

export type AuctionPageForm = z.infer<typeof auctionPageSchema>;
export type AuctionPageIntent = AuctionPageForm["intent"];

/** The intent of a submission the schema refused, when it is one of the page's. */
export function intentOf(value: unknown): AuctionPageIntent | undefined {
  const intents: readonly unknown[] = ["publish", "withdraw", "cancel", "accept-terms", "bid", "auto-bid"];
  return intents.includes(value) ? (value as AuctionPageIntent) : undefined;
}

/** The fields the page shows back after a refusal at one of them. */
export const TYPED_FIELDS = ["amount", "minimum", "reason"];

/**
 * One problem at a time, as the page has always answered: the first problem other than an amount's
 * (a reason's message, or "choose what to do" for anything else), otherwise the amount's. Rewrites a
 * failed parse's errors in place; true when the answer is form-wide (nothing typed is shown back).
 */
export function oneAuctionPageError(error: Record<string, string[] | null> | null | undefined): boolean {
  if (!error) return false;
  const problems = Object.entries(error).flatMap(([name, messages]) =>
    (messages ?? []).map((message) => ({ name, message })),
  );
  for (const name of Object.keys(error)) delete error[name];
  const other = problems.find(
    ({ name, message }) => !((name === "amount" || name === "minimum") && DOLLARS_MESSAGES.has(message)),
  );
  if (other?.name === "reason") {
    error.reason = [other.message === DISALLOWED_CHARACTERS ? DISALLOWED_CHARACTERS : CANCEL_REASON_REQUIRED];
    return false;
  }
  const first = problems[0];
  if (other || !first) {
    error[""] = [CHOOSE_WHAT_TO_DO];
    return true;
  }
  error[first.name] = [first.message];
  return false;
}
