import { z } from "zod";
import { textField } from "~/forms/text-schema";
import { idField } from "~/shared/ids";
import { parseDollars } from "~/shared/money";

// The on-behalf form (issue 21), one schema for the action and the browser: the seller, a bid or a
// minimum, the amount, and the mandatory note of who phoned and when.

export const CHOOSE_A_SELLER = "Choose the seller who phoned";
export const CHOOSE_WHAT = "Choose whether to place a bid or set a minimum";
export const AMOUNT_MISSING = "Enter the amount the seller asked for";
export const AMOUNT_FORMAT = "Enter an amount in dollars and cents, like 12500.00";
export const CALLER_MISSING = "Enter the name of the person who phoned";
export const CALL_TIME_FORMAT = "Enter the time of the call as hours and minutes, like 14:05";

export const onBehalfSchema = z.object({
  seller: idField(CHOOSE_A_SELLER),
  what: z.enum(["bid", "minimum"], { error: CHOOSE_WHAT }),
  amount: z
    .string()
    .max(40, AMOUNT_FORMAT)
    .default("")
    .transform((typed, context) => {
      const cents = parseDollars(typed);
      if (cents !== null && cents >= 1) return cents;
      context.addIssue({ code: "custom", message: typed.trim() ? AMOUNT_FORMAT : AMOUNT_MISSING });
      return z.NEVER;
    }),
  caller: textField({ error: CALLER_MISSING })
    .min(1, CALLER_MISSING)
    .max(120, "Enter at most 120 characters for the caller's name"),
  calledAt: textField({ error: CALL_TIME_FORMAT }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, CALL_TIME_FORMAT),
  details: textField({ multiline: true }).max(500, "Enter at most 500 characters of details").optional(),
  /** The typo guard's answer: a bid far under the price, confirmed with the caller. */
  confirm: z.literal("yes").optional(),
});

export type OnBehalfForm = z.infer<typeof onBehalfSchema>;
export type OnBehalfFields = {
  seller: string;
  what: string;
  amount: string;
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
