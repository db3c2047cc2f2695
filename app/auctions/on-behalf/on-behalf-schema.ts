import { z } from "zod";
import { textField } from "~/forms/text-schema";
import { idField, idOf } from "~/shared/ids";
import { parseDollars } from "~/shared/money";
import { MAX_LINES_PER_LOT } from "../lots/line-items";

// The on-behalf form (issue 21), one schema for the action and the browser: the seller, a bid or a
// minimum, the amount, and the mandatory note of who phoned and when; on an auction of lots (issue
// 31) the lot, and on a lot priced by lines a unit price per line instead of the bid's amount.

export const CHOOSE_A_SELLER = "Choose the seller who phoned";
export const CHOOSE_WHAT = "Choose whether to place a bid or set a minimum";
export const AMOUNT_MISSING = "Enter the amount the seller asked for";
export const AMOUNT_FORMAT = "Enter an amount in dollars and cents, like 12500.00";
export const CALLER_MISSING = "Enter the name of the person who phoned";
export const CALL_TIME_FORMAT = "Enter the time of the call as hours and minutes, like 14:05";
export const UNIT_PRICE_FORMAT = "Enter a unit price in dollars and cents, like 185.00";
export const PRICES_NOT_A_LIST = "Send a unit price for each of the lot's lines";

/** A lot of a lotted auction (issue 31): the lot the seller asked about. */
export const CHOOSE_A_LOT = "Choose the lot the seller bids on";

/** A unit price as typed: dollars and cents, zero allowed (a line at no charge); the lot page's rule. */
const unitPrice = textField()
  .max(40, UNIT_PRICE_FORMAT)
  .refine((text) => parseDollars(text) !== null, { message: UNIT_PRICE_FORMAT })
  .optional();

export const onBehalfSchema = z
  .object({
    seller: idField(CHOOSE_A_SELLER),
    what: z.enum(["bid", "minimum"], { error: CHOOSE_WHAT }),
    /** The lot, on an auction of lots (issue 31); the server checks it is one of the auction's, still open. */
    lot: z.preprocess(
      (value) => (value === undefined ? undefined : (idOf(value) ?? null)),
      z.number({ error: CHOOSE_A_LOT }).optional(),
    ),
    /** Set by the form of a lot priced by lines: a bid is its unit prices, the amount only a minimum. */
    pricing: z.literal("lines").optional(),
    amount: z
      .string()
      .max(40, AMOUNT_FORMAT)
      .optional()
      .transform((typed, context) => {
        if (!typed?.trim()) return undefined;
        const cents = parseDollars(typed);
        if (cents !== null && cents >= 1) return cents;
        context.addIssue({ code: "custom", message: AMOUNT_FORMAT });
        return z.NEVER;
      }),
    /** A lot priced by lines: a unit price per line, in the lines' order. */
    prices: z.array(unitPrice, { error: PRICES_NOT_A_LIST }).max(MAX_LINES_PER_LOT, PRICES_NOT_A_LIST).optional(),
    caller: textField({ error: CALLER_MISSING })
      .min(1, CALLER_MISSING)
      .max(120, "Enter at most 120 characters for the caller's name"),
    calledAt: textField({ error: CALL_TIME_FORMAT }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, CALL_TIME_FORMAT),
    details: textField({ multiline: true }).max(500, "Enter at most 500 characters of details").optional(),
    /**
     * The typo guard's answer (a bid far under the price, confirmed with the caller); on a lot priced
     * by lines, the total confirmed (sent at once with JavaScript, which shows it as it is typed).
     */
    confirm: z.literal("yes").optional(),
  })
  .superRefine(
    (value, context) => {
      // A bid on a lot priced by lines is its unit prices (checked against the lot by the server).
      if (value.amount === undefined && !(value.what === "bid" && value.pricing === "lines")) {
        context.addIssue({ code: "custom", path: ["amount"], message: AMOUNT_MISSING });
      }
      // Said with the other fields' messages, not only once they are right (it reads nothing else).
    },
    { when: () => true },
  );

export type OnBehalfForm = z.infer<typeof onBehalfSchema>;
export type OnBehalfFields = {
  seller: string;
  what: string;
  lot: string;
  pricing: string;
  amount: string;
  prices: string[];
  caller: string;
  calledAt: string;
  details: string;
  confirm: string;
};

/** How far back a call may be (minutes): the seller phones during the last minutes of bidding. */
export const CALL_WINDOW_MINUTES = 12 * 60;
export const CALL_TIME_OUT_OF_WINDOW = "The time of the call must be within the last 12 hours, and not later than now";

/**
 * Whether the call's time of day (HH:MM in the zone) is now or within the window before it. Worked
 * on the clock face, so a call at 23:58 entered at 00:03 is 5 minutes ago.
 */
export function callTimeAllowed(calledAt: string, now: Date, timeZone: string): boolean {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  const nowMinutes = Number(parts.hour) * 60 + Number(parts.minute);
  const [hours, minutes] = calledAt.split(":").map(Number);
  const callMinutes = (hours ?? 0) * 60 + (minutes ?? 0);
  const ago = (nowMinutes - callMinutes + 24 * 60) % (24 * 60);
  return ago <= CALL_WINDOW_MINUTES;
}

/** The note kept with the bid: who phoned and when (in the zone of the one who took the call), and any details. */
export function onBehalfNote(form: Pick<OnBehalfForm, "caller" | "calledAt" | "details">, timeZone: string): string {
  const details = form.details?.trim();
  return `Phoned by ${form.caller} at ${form.calledAt} (${timeZone})${details ? `: ${details}` : ""}`;
}
