import { z } from "zod";
import { optionalFileField } from "~/forms/file-schema";
import { textField } from "~/forms/text-schema";
import { DOCUMENT_MESSAGES, MAX_DOCUMENT_BYTES } from "../documents/document-types";

// The questions' forms (issue 21), told apart by `intent`: a seller asks (text and an optional file),
// the auction's side answers one question (privately or for every invited seller) or publishes an
// answer it gave privately. One schema for the action and the browser; what a file holds is checked
// by the server (the documents' checks).

export const QUESTION_MAX = 2000;
export const ANSWER_MAX = 5000;

export const QUESTION_MESSAGES = {
  question: "Please enter your question",
  questionTooLong: `Your question must be ${QUESTION_MAX} characters or fewer`,
  answer: "Please enter your answer",
  answerTooLong: `The answer must be ${ANSWER_MAX} characters or fewer`,
  audience: "Please choose who sees the answer",
  gone: "That question does not exist.",
  closedForQuestions: "Questions can be asked only from publication until bidding closes.",
  notSeller: "Only an invited seller can ask a question about this auction.",
  notAnswerer: "Only the buyer or its consultant can answer questions about this auction.",
  answered: "This question has already been answered.",
  cancelled: "This auction has been cancelled: its questions can no longer be answered.",
  notAnswered: "Only an answered question can be published.",
  tooMany: "Your organization has asked the most questions allowed for this auction (50).",
  lot: "Please choose the whole auction or one of its lots",
} as const;

/** Questions one seller may ask about one auction: enough for any real need, a bound for abuse. */
export const MAX_QUESTIONS_PER_SELLER = 50;

/** An optional file: none, or exactly one. */
const optionalFile = optionalFileField({ several: DOCUMENT_MESSAGES.several });

export const askSchema = z.object({
  intent: z.literal("ask"),
  question: textField({ error: QUESTION_MESSAGES.question, multiline: true })
    .min(1, QUESTION_MESSAGES.question)
    .max(QUESTION_MAX, QUESTION_MESSAGES.questionTooLong),
  /** On an auction of several lots (issue 31): the lot's id, or empty for the whole auction. */
  lot: z.string().max(12, QUESTION_MESSAGES.lot).optional(),
  attachment: optionalFile,
});

export const answerSchema = z.object({
  intent: z.literal("answer"),
  questionId: z.string().max(12).default(""),
  answer: textField({ error: QUESTION_MESSAGES.answer, multiline: true })
    .min(1, QUESTION_MESSAGES.answer)
    .max(ANSWER_MAX, QUESTION_MESSAGES.answerTooLong),
  audience: z.enum(["asker", "everyone"], { error: QUESTION_MESSAGES.audience }),
  termsChanged: z.literal("yes").optional(),
});

export const publishSchema = z.object({
  intent: z.literal("publish"),
  questionId: z.string().max(12).default(""),
});

export const questionFormSchema = z.discriminatedUnion("intent", [askSchema, answerSchema, publishSchema]);

/** The ask form in the browser: also what the server refuses by size alone, said before sending. */
export const askBrowserSchema = askSchema.extend({
  attachment: optionalFile.superRefine((file, context) => {
    if (!file) return;
    if (file.size === 0) context.addIssue({ code: "custom", message: DOCUMENT_MESSAGES.empty });
    else if (file.size > MAX_DOCUMENT_BYTES) context.addIssue({ code: "custom", message: DOCUMENT_MESSAGES.tooBig });
  }),
});
