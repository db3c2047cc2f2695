import { z } from "zod";
import { textField } from "~/forms/text-schema";
import { idField } from "~/shared/ids";

// The award form: which bid, why another than the first (when it is), and the confirmation's "yes".

export const CHOOSE_A_BID = "Please choose one of the bids";

export const awardFormSchema = z.object({
  bid: idField(CHOOSE_A_BID),
  reason: textField({ multiline: true }).max(2000).optional(),
  confirm: z.literal("yes").optional(),
});

export type AwardFormFields = { bid: string; reason: string; confirm: string };

/**
 * One problem at a time, as the page has always answered: the reason's first, otherwise "choose one
 * of the bids" (a tampered confirmation included). Rewrites a failed parse's errors in place.
 */
export function oneAwardError(error: Record<string, string[] | null> | null | undefined): void {
  if (!error) return;
  const reason = error.reason?.slice(0, 1);
  for (const name of Object.keys(error)) delete error[name];
  if (reason?.length) error.reason = reason;
  else error.bid = [CHOOSE_A_BID];
}
