import { type SubmissionResult, useForm } from "@conform-to/react";
import { Form } from "react-router";
import type { z } from "zod";
import { useAnswerOnThisPage } from "~/forms/answer-on-this-page";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { CheckboxField, RadioGroupField, radioId, SelectField, TextAreaField } from "~/forms/field";
import { useSubmitAttempts } from "~/forms/submit-attempts";
import { SubmitButton } from "~/forms/submit-button";
import { describedBy, FieldFrame } from "~/forms/text-input";
import { ACCEPT_ATTRIBUTE, DOCUMENT_HINT, formatBytes } from "../documents/document-types";
import { ANSWER_MAX, answerSchema, askBrowserSchema, QUESTION_MAX } from "./question-schema";
import type { QuestionItem, QuestionsView } from "./questions.server";

// The questions and answers of an auction (issue 21), as the auction page and the questions page show
// them: a seller's own questions and the published answers, with the form to ask; the auction's side
// sees every question with who asked, unanswered first, each with its answer form. Every form posts
// to /auctions/:id/questions, whose page shows a refusal at its field with what was typed.

export type QuestionsActionData = {
  intent?: "ask" | "answer" | "publish";
  questionId?: string;
  result: SubmissionResult<string[]>;
};

/** The questions' page, where every form posts. */
export const questionsPath = (auctionId: number) => `/auctions/${auctionId}/questions`;

export function QuestionsPanel({
  auctionId,
  questions,
  answer,
  termsEditable,
}: {
  auctionId: number;
  questions: QuestionsView;
  answer?: QuestionsActionData;
  /** The terms may still change (the answer form links to them). */
  termsEditable?: boolean;
}) {
  const { items, mayAsk, readsAll } = questions;
  const own = items.filter((item) => item.own);
  const published = items.filter((item) => !item.own);
  const formWide = answer && !answer.intent ? (answer.result.error?.[""] ?? []) : [];
  return (
    <section aria-labelledby="questions" id="questions-section">
      <h2 id="questions">Questions and answers</h2>
      <ErrorSummary formErrors={formWide} />
      {readsAll ? (
        items.length === 0 ? (
          <p>No seller has asked a question yet.</p>
        ) : (
          <ol className="link-list">
            {items.map((item) => (
              <li key={item.id}>
                <QuestionCard auctionId={auctionId} item={item} headingPrefix={askerText(item)} level={3}>
                  {questions.mayAnswer && item.answer === null ? (
                    <AnswerForm auctionId={auctionId} item={item} answer={answer} termsEditable={termsEditable} />
                  ) : null}
                  {questions.mayAnswer && item.answer !== null && !item.published ? (
                    <PublishForm auctionId={auctionId} item={item} answer={answer} />
                  ) : null}
                </QuestionCard>
              </li>
            ))}
          </ol>
        )
      ) : (
        <>
          <h3>Your questions</h3>
          {own.length === 0 ? (
            <p>Your organization has not asked a question.</p>
          ) : (
            <ol className="link-list">
              {own.map((item) => (
                <li key={item.id}>
                  <QuestionCard auctionId={auctionId} item={item} headingPrefix="Your question" />
                </li>
              ))}
            </ol>
          )}
          <h3>Answers for every seller</h3>
          {published.length === 0 ? (
            <p>The buyer has not published an answer to another seller's question.</p>
          ) : (
            <ol className="link-list">
              {published.map((item) => (
                <li key={item.id}>
                  <QuestionCard auctionId={auctionId} item={item} headingPrefix="A seller's question" />
                </li>
              ))}
            </ol>
          )}
          {mayAsk ? (
            <AskForm auctionId={auctionId} answer={answer} lots={questions.lots} />
          ) : (
            <p>Questions can be asked from publication until bidding closes.</p>
          )}
        </>
      )}
    </section>
  );
}

const askerText = (item: QuestionItem) =>
  item.askedBy
    ? `From ${item.askedBy.organization}${item.askedBy.alias ? ` (${item.askedBy.alias})` : ""}${
        item.askedBy.user ? `, ${item.askedBy.user}` : ""
      }`
    : "Question";

function QuestionCard({
  auctionId,
  item,
  headingPrefix,
  level = 4,
  children,
}: {
  auctionId: number;
  item: QuestionItem;
  headingPrefix: string;
  /** 3 in the buyer's flat list, 4 under a seller's "Your questions" and "Answers for every seller". */
  level?: 3 | 4;
  children?: React.ReactNode;
}) {
  const Heading = level === 3 ? "h3" : "h4";
  const state =
    item.answer === null
      ? "not answered yet"
      : item.published
        ? "answered for every invited seller"
        : "answered to the asker only";
  return (
    <article className="card" aria-labelledby={`question-${item.id}`}>
      <Heading id={`question-${item.id}`}>{`${headingPrefix}: ${state}`}</Heading>
      <p className="field__hint">
        {`${item.own || item.askedBy ? "Asked" : "Published"} ${item.askedAtText}`}
        {item.own && item.published ? " (shown to every invited seller without your organization's name)" : ""}
      </p>
      {item.lot ? <p>{`About ${item.lot}`}</p> : null}
      <p className="preserve-lines">{item.question}</p>
      {item.attachment ? (
        <p>
          {"Attached: "}
          <a href={`${questionsPath(auctionId)}/${item.id}/attachment`}>{item.attachment.fileName}</a>
          {` (${formatBytes(item.attachment.sizeBytes)})`}
        </p>
      ) : null}
      {item.answer !== null ? (
        <div className="inset">
          <p>
            <strong>Answer</strong>
            {item.answeredAtText ? <span className="field__hint">{` ${item.answeredAtText}`}</span> : null}
          </p>
          <p className="preserve-lines">{item.answer}</p>
          {item.termsChanged ? (
            <p>
              <strong>The terms were changed because of this question.</strong> Read them again on the auction's page.
            </p>
          ) : null}
        </div>
      ) : null}
      {children}
    </article>
  );
}

type AskFields = { intent: string; question: string; lot: string; attachment: File };

function AskForm({
  auctionId,
  answer,
  lots,
}: {
  auctionId: number;
  answer?: QuestionsActionData;
  /** An auction of several lots (issue 31): a question may be about one of them. */
  lots: QuestionsView["lots"];
}) {
  const lastResult = useAnswerOnThisPage(answer?.intent === "ask" ? answer.result : undefined);
  const [form, fields] = useForm<AskFields, z.output<typeof askBrowserSchema>>({
    id: "ask",
    lastResult,
    ...validatedBy(askBrowserSchema, { constraint: false, shouldRevalidate: "onSubmit" }),
  });
  const { formProps, submissionKey } = useSubmitAttempts(form, answer);
  const attachmentErrors = fields.attachment.errors;
  const hint = `Optional. ${DOCUMENT_HINT}`;
  return (
    <section aria-labelledby="ask-heading">
      <h3 id="ask-heading">Ask the buyer a question</h3>
      <p>
        The buyer answers you alone, or publishes the answer to every invited seller. Other sellers never learn that
        your organization asked.
      </p>
      <ErrorSummary
        formErrors={form.errors}
        fieldErrors={[
          ...(fields.question.errors ?? []).map((message) => ({ fieldId: fields.question.id, message })),
          ...(fields.lot.errors ?? []).map((message) => ({ fieldId: fields.lot.id, message })),
          ...(attachmentErrors ?? []).map((message) => ({ fieldId: fields.attachment.id, message })),
        ]}
        submissionKey={submissionKey}
      />
      <Form
        method="post"
        action={questionsPath(auctionId)}
        encType="multipart/form-data"
        {...formProps}
        className="stack"
      >
        <input type="hidden" name="intent" value="ask" />
        <TextAreaField
          field={fields.question}
          label="Your question"
          hint={`At most ${QUESTION_MAX} characters. Do not name your organization if the answer may be published.`}
          rows={5}
        />
        {lots.length > 0 ? (
          <SelectField
            field={fields.lot}
            label="About"
            placeholder="The whole auction"
            options={lots.map((lot) => ({ value: String(lot.id), label: lot.name }))}
          />
        ) : null}
        <FieldFrame
          id={fields.attachment.id}
          errorId={fields.attachment.errorId}
          label="Attachment"
          hint={hint}
          errors={attachmentErrors}
        >
          <input
            id={fields.attachment.id}
            name={fields.attachment.name}
            type="file"
            accept={ACCEPT_ATTRIBUTE}
            className={attachmentErrors?.length ? "input input--error" : "input"}
            aria-invalid={attachmentErrors?.length ? true : undefined}
            aria-describedby={describedBy(fields.attachment.id, fields.attachment.errorId, hint, attachmentErrors)}
          />
        </FieldFrame>
        <SubmitButton>Send the question</SubmitButton>
      </Form>
    </section>
  );
}

type AnswerFields = { intent: string; questionId: string; answer: string; audience: string; termsChanged: string };

function AnswerForm({
  auctionId,
  item,
  answer,
  termsEditable,
}: {
  auctionId: number;
  item: QuestionItem;
  answer?: QuestionsActionData;
  termsEditable?: boolean;
}) {
  const mine = answer?.intent === "answer" && answer.questionId === String(item.id);
  const lastResult = useAnswerOnThisPage(mine ? answer.result : undefined);
  const [form, fields] = useForm<AnswerFields, z.output<typeof answerSchema>>({
    id: `answer-${item.id}`,
    lastResult,
    ...validatedBy(answerSchema, { constraint: false }),
  });
  const { formProps, submissionKey } = useSubmitAttempts(form, mine ? answer : undefined);
  return (
    <>
      <ErrorSummary
        formErrors={form.errors}
        fieldErrors={[
          ...(fields.answer.errors ?? []).map((message) => ({ fieldId: fields.answer.id, message })),
          ...(fields.audience.errors ?? []).map((message) => ({ fieldId: radioId(fields.audience, 0), message })),
        ]}
        submissionKey={submissionKey}
      />
      <Form method="post" action={questionsPath(auctionId)} {...formProps} className="stack">
        <input type="hidden" name="intent" value="answer" />
        <input type="hidden" name="questionId" value={item.id} />
        <TextAreaField field={fields.answer} label="Your answer" hint={`At most ${ANSWER_MAX} characters.`} />
        <RadioGroupField
          field={fields.audience}
          legend="Who sees the answer?"
          options={[
            { value: "asker", label: "Only the seller who asked" },
            { value: "everyone", label: "Every invited seller, with the question (the asker is never named)" },
          ]}
        />
        <CheckboxField
          field={fields.termsChanged}
          label="I changed the terms because of this question"
          hint={
            termsEditable ? (
              <>
                Change them first on <a href={`/auctions/${auctionId}/edit`}>the terms page</a>: every invited seller is
                told what changed.
              </>
            ) : (
              "Every invited seller is told what changed when the terms are saved."
            )
          }
        />
        <SubmitButton>Send the answer</SubmitButton>
      </Form>
    </>
  );
}

function PublishForm({
  auctionId,
  item,
  answer,
}: {
  auctionId: number;
  item: QuestionItem;
  answer?: QuestionsActionData;
}) {
  const mine = answer?.intent === "publish" && answer.questionId === String(item.id);
  const errors = mine ? (answer.result.error?.[""] ?? []) : [];
  return (
    <>
      <ErrorSummary formErrors={errors} />
      <Form method="post" action={questionsPath(auctionId)}>
        <input type="hidden" name="intent" value="publish" />
        <input type="hidden" name="questionId" value={item.id} />
        <SubmitButton>
          Publish this answer to every invited seller
          <span className="visually-hidden">{` (question asked ${item.askedAtText})`}</span>
        </SubmitButton>
      </Form>
    </>
  );
}
