import { data, redirect } from "react-router";
import { Alert } from "~/forms/alert";
import { parseSubmission } from "~/forms/parse-submission.server";
import { pageTitle } from "~/layout/page-title";
import { appServicesContext } from "~/server/app-context";
import { parseId } from "~/shared/ids";
import { readsOnly, requireAuction } from "../auction-access.server";
import { termsOpenForChange } from "../auction-rules";
import { DOCUMENT_MESSAGES, MAX_DOCUMENT_BYTES } from "../documents/document-types";
import { discardBody, readLimitedForm } from "../documents/upload-body.server";
import { timezoneOf } from "../lifecycle/auction-form.server";
import type { Route } from "./+types/auction-questions";
import { QUESTION_MESSAGES, questionFormSchema } from "./question-schema";
import { answerQuestion, askQuestion, hasQuestions, mayAnswer, publishAnswer, questionsFor } from "./questions.server";
import { type QuestionsActionData, QuestionsPanel, questionsPath } from "./questions-panel";

// /auctions/:auctionId/questions (issue 21): every question a reader may see, the form to ask (an
// invited seller) or to answer (the auction's side). The auction page shows the same panel; its forms
// post here, and a refusal is shown here at its field with what was typed.

/** A question with its file, and the form's few fields. */
const MAX_BODY_BYTES = MAX_DOCUMENT_BYTES + 64 * 1024;

const DONE = {
  asked: "Your question has been sent to the buyer.",
  answered: "The answer has been sent.",
  published: "The answer is now shown to every invited seller.",
} as const;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user, auction, viewer } = await requireAuction(request, context, params.auctionId);
  if (!hasQuestions(auction)) throw data(null, { status: 404 });
  const { db } = context.get(appServicesContext);
  const questions = await questionsFor(db, auction, viewer, timezoneOf(user));
  const done = new URL(request.url).searchParams.get("done");
  return {
    auction: { id: auction.id, title: auction.title },
    questions,
    termsEditable: viewer.kind === "owner" && termsOpenForChange(auction, new Date()),
    done: done && Object.hasOwn(DONE, done) ? (done as keyof typeof DONE) : null,
  };
}

const answerWith = (status: number, answer: QuestionsActionData) => data(answer, { status });

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, auction, viewer } = await requireAuction(request, context, params.auctionId);
  const services = context.get(appServicesContext);
  if (!hasQuestions(auction) || (viewer.kind !== "seller" && !mayAnswer(viewer))) {
    // A practice auction has none (404, as for a seller not invited); staff only read them (403).
    await discardBody(request);
    throw data(null, { status: hasQuestions(auction) && readsOnly(viewer) ? 403 : 404 });
  }
  const body = await readLimitedForm(request, MAX_BODY_BYTES);
  if (body.kind === "too-large") {
    return answerWith(413, {
      intent: "ask",
      result: { status: "error", error: { attachment: [DOCUMENT_MESSAGES.tooBig] } },
    });
  }
  if (body.kind === "malformed") {
    return answerWith(body.status, { result: { status: "error", error: { "": [DOCUMENT_MESSAGES.unreadable] } } });
  }
  const submission = parseSubmission(body.form, { schema: questionFormSchema });
  const rawIntent = body.form.get("intent");
  const intent = rawIntent === "ask" || rawIntent === "answer" || rawIntent === "publish" ? rawIntent : undefined;
  const questionId = String(body.form.get("questionId") ?? "");
  if (submission.status !== "success") {
    return answerWith(400, {
      intent,
      questionId,
      result: intent
        ? submission.reply({ hideFields: ["attachment"] })
        : submission.reply({ formErrors: ["Please choose what to do."], hideFields: ["attachment"] }),
    });
  }
  const form = submission.value;
  const actor = { userId: user.id, organizationId: viewer.organizationId };
  const back = (done: keyof typeof DONE) => redirect(`${questionsPath(auction.id)}?done=${done}`);

  if (form.intent === "ask") {
    if (viewer.kind !== "seller") throw data(null, { status: 403 });
    const file = form.attachment
      ? { name: form.attachment.name, bytes: Buffer.from(await form.attachment.arrayBuffer()) }
      : undefined;
    // Empty: the whole auction; anything else must be one of the auction's lots (checked by askQuestion).
    const lotId = form.lot ? parseId(form.lot) : undefined;
    const outcome =
      form.lot && lotId === undefined
        ? ({ kind: "refused", status: 400, message: QUESTION_MESSAGES.lot, field: "lot" } as const)
        : await askQuestion(services, auction.id, actor, { question: form.question, lotId, file });
    if (outcome.kind === "refused") {
      if (outcome.status === 404) throw data(null, { status: 404 });
      return answerWith(outcome.status, {
        intent,
        result: outcome.field
          ? submission.reply({ fieldErrors: { [outcome.field]: [outcome.message] }, hideFields: ["attachment"] })
          : submission.reply({ formErrors: [outcome.message], hideFields: ["attachment"] }),
      });
    }
    return back("asked");
  }

  if (!mayAnswer(viewer)) throw data(null, { status: 403 });
  const id = parseId(form.questionId);
  const outcome = !id
    ? ({ kind: "refused", status: 404, message: QUESTION_MESSAGES.gone } as const)
    : form.intent === "answer"
      ? await answerQuestion(services, auction.id, actor, id, {
          answer: form.answer,
          publish: form.audience === "everyone",
          termsChanged: form.termsChanged === "yes",
        })
      : await publishAnswer(services, auction.id, actor, id);
  if (outcome.kind === "refused") {
    return answerWith(outcome.status, {
      intent,
      questionId,
      result: submission.reply({ formErrors: [outcome.message] }),
    });
  }
  return back(form.intent === "answer" ? "answered" : "published");
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Questions: ${loaderData.auction.title}` : "Questions") }];
}

export default function AuctionQuestions({ loaderData, actionData }: Route.ComponentProps) {
  const { auction, questions, termsEditable, done } = loaderData;
  return (
    <div className="narrow">
      <p>
        <a href={`/auctions/${auction.id}`}>Back to the auction</a>
      </p>
      <h1>Questions</h1>
      <p className="lead">{auction.title}</p>
      {done ? (
        <Alert title="Done" tone="success" focus>
          <p>{DONE[done]}</p>
        </Alert>
      ) : null}
      <QuestionsPanel
        auctionId={auction.id}
        questions={questions}
        answer={actionData as QuestionsActionData | undefined}
        termsEditable={termsEditable}
      />
    </div>
  );
}
