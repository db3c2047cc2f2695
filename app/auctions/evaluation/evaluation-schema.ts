import { z } from "zod";
import { textField } from "~/forms/text-schema";
import { idField } from "~/shared/ids";

// The evaluation page's forms, told apart by `intent`: add a criterion, remove one, score a seller
// (one score and one comment per criterion of the auction, so the schema is built from them), and
// complete the evaluation. One schema for the action and every form on the page.

export const NAME_REQUIRED = "Please name the criterion";
const WEIGHT_MESSAGE = "Please enter the weight as a whole number from 1 to 100";
const SCORE_MESSAGE = "Please enter a whole number from 0 to 10, or leave it empty";
const REASON_REQUIRED = "Please say why the bid is technically unacceptable";
const TOO_LONG = "Please use at most 1000 characters";
const CHOOSE_A_CRITERION = "Please choose a criterion to remove.";
const CHOOSE_A_SELLER = "Please choose a seller to score.";
const CHOOSE_WHAT_TO_DO = "Please choose what to do.";

export const scoreField = (criterionId: number) => `score_${criterionId}`;
export const commentField = (criterionId: number) => `comment_${criterionId}`;

/** What the browser sent, as text: a missing field or a file is empty, as the page has always read it. */
const sentText = z.string().catch("");

/** A score from 0 to 10, or null when left empty. */
const scoreSchema = sentText.transform((typed, context) => {
  const text = typed.trim().slice(0, 20);
  if (text === "") return null;
  if (/^\d{1,2}$/.test(text) && Number(text) <= 10) return Number(text);
  context.addIssue({ code: "custom", message: SCORE_MESSAGE });
  return z.NEVER;
});

/** Free text, empty when left empty (Conform sends an empty field as missing). */
const longText = textField({ multiline: true }).max(1000, TOO_LONG).default("");

type Criterion = { id: number };

export function evaluationFormSchema(criteria: readonly Criterion[]) {
  const sheetFields: Record<string, typeof scoreSchema | typeof longText> = {};
  for (const criterion of criteria) {
    sheetFields[scoreField(criterion.id)] = scoreSchema;
    sheetFields[commentField(criterion.id)] = longText;
  }
  const scoreSheet = z
    .object({
      intent: z.literal("score"),
      organizationId: idField(CHOOSE_A_SELLER),
      unacceptable: sentText.transform((value) => value === "yes"),
      unacceptable_reason: longText,
    })
    // The criteria's fields, known only at run time: the transform below reads them by name.
    .extend(sheetFields as Record<never, never>)
    .superRefine((sheet, context) => {
      if (sheet.unacceptable && sheet.unacceptable_reason === "") {
        context.addIssue({ code: "custom", message: REASON_REQUIRED, path: ["unacceptable_reason"] });
      }
    })
    .transform((sheet) => {
      const typed = sheet as Record<string, unknown>;
      return {
        intent: sheet.intent,
        organizationId: sheet.organizationId,
        scores: criteria.map((criterion) => ({
          criterionId: criterion.id,
          score: typed[scoreField(criterion.id)] as number | null,
          comment: typed[commentField(criterion.id)] as string,
        })),
        unacceptable: sheet.unacceptable,
        unacceptableReason: sheet.unacceptable_reason,
      };
    });
  return z.discriminatedUnion("intent", [
    z.object({
      intent: z.literal("add-criterion"),
      name: textField({ error: NAME_REQUIRED }).min(1, NAME_REQUIRED).max(100, "Please use at most 100 characters"),
      weight: textField({ error: WEIGHT_MESSAGE })
        .regex(/^\d{1,3}$/, WEIGHT_MESSAGE)
        .transform(Number)
        .pipe(z.number().min(1, WEIGHT_MESSAGE).max(100, WEIGHT_MESSAGE)),
    }),
    z.object({ intent: z.literal("remove-criterion"), criterionId: idField(CHOOSE_A_CRITERION) }),
    scoreSheet,
    z.object({ intent: z.literal("complete"), confirm: sentText.transform((value) => value === "yes") }),
  ]);
}

/**
 * One problem at a time, as the page has always answered: a form-wide message for a bad intent, id
 * or seller; otherwise the criterion's name before its weight, or the first criterion's score, then
 * its comment, in the criteria's order, then the reason. Rewrites a failed parse's errors in place;
 * true when the answer is form-wide (no form shows what was typed).
 */
export function oneEvaluationError(
  error: Record<string, string[] | null> | null | undefined,
  criteria: readonly Criterion[],
): boolean {
  if (!error) return false;
  const found = { ...error };
  for (const name of Object.keys(error)) delete error[name];
  const formWide = found.intent?.length
    ? CHOOSE_WHAT_TO_DO
    : found.criterionId?.length
      ? CHOOSE_A_CRITERION
      : found.organizationId?.length
        ? CHOOSE_A_SELLER
        : undefined;
  if (formWide) {
    error[""] = [formWide];
    return true;
  }
  const order = [
    "name",
    "weight",
    ...criteria.flatMap((criterion) => [scoreField(criterion.id), commentField(criterion.id)]),
    "unacceptable_reason",
  ];
  const first = order.find((name) => found[name]?.length);
  const message = first ? found[first]?.[0] : undefined;
  if (first && message) {
    error[first] = [message];
    return false;
  }
  error[""] = [CHOOSE_WHAT_TO_DO];
  return true;
}

/**
 * What a refused form shows back, as the page has always shown it: a criterion's name and weight
 * capped as typed; a score sheet's texts trimmed and capped, the box ticked or not.
 */
export function typedValuesShownBack(
  sent: Record<string, unknown>,
  criteria: readonly Criterion[],
): Record<string, string> {
  const text = (name: string) => {
    const value = Array.isArray(sent[name]) ? (sent[name] as unknown[])[0] : sent[name];
    return typeof value === "string" ? value : "";
  };
  if (sent.intent === "add-criterion") return { name: text("name").slice(0, 200), weight: text("weight").slice(0, 20) };
  const typed: Record<string, string> = {};
  for (const criterion of criteria) {
    typed[scoreField(criterion.id)] = text(scoreField(criterion.id)).trim().slice(0, 20);
    typed[commentField(criterion.id)] = text(commentField(criterion.id)).trim().slice(0, 2000);
  }
  typed.unacceptable = text("unacceptable") === "yes" ? "yes" : "";
  typed.unacceptable_reason = text("unacceptable_reason").trim().slice(0, 2000);
  return typed;
}
