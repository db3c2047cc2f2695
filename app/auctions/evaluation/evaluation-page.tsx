import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form, Link } from "react-router";
import { Alert } from "~/forms/alert";
import { ErrorSummary, type FieldErrorLink } from "~/forms/error-summary";
import { RowActionForm } from "~/forms/row-action-form";
import { SubmitButton } from "~/forms/submit-button";
import { describedBy, FieldFrame, TextAreaInput, TextInput } from "~/forms/text-input";
import { pageTitle } from "~/layout/page-title";
import { SealedSchedules } from "../sealed/sealed-schedules";
import type { Route } from "./+types/evaluation-page";
import { commentFieldId, reasonFieldId, scoreFieldId } from "./evaluation-fields";
import { type EvaluationNotice, loadEvaluationPage, submitEvaluationPage } from "./evaluation-page.server";
import { commentField, scoreField } from "./evaluation-schema";
import { RankingTable } from "./ranking-table";

// /auctions/{id}/evaluation: the technical evaluation of an auction's bids (issue 10). The evaluator
// sets weighted criteria before bidding opens, scores each seller 0 to 10 with comments, may judge a
// bid technically unacceptable, and marks the evaluation complete; the buyer's side and staff read
// the scores and the ranking. Plain forms throughout: it all works without JavaScript.

export const loader = ({ request, params, context }: Route.LoaderArgs) =>
  loadEvaluationPage(request, context, params.auctionId);

export const action = ({ request, params, context }: Route.ActionArgs) =>
  submitEvaluationPage(request, context, params.auctionId);

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Evaluation: ${loaderData.auction.title}` : "Evaluation") }];
}

type LoaderData = Route.ComponentProps["loaderData"];
type Subject = NonNullable<LoaderData["subjects"]>[number];

const NOTICES: Record<EvaluationNotice, string> = {
  "criterion-added": "The criterion has been added.",
  "criterion-removed": "The criterion has been removed.",
  scored: "Scores saved.",
  completed: "The evaluation is complete: the buyer has been e-mailed and can award the auction.",
};

export default function EvaluationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { auction, canEvaluate, criteria, subjects, rankings, notice, scoredName } = loaderData;
  const answer = actionData;
  const result = answer?.result;
  const refusedForm = answer?.form;
  const sheetOf = typeof refusedForm === "object" ? refusedForm.organizationId : undefined;
  const summary = summaryOf(result, sheetOf);
  const scoredSeller = subjects?.find((subject) => String(subject.organizationId) === scoredName);
  const sealedNotYet = auction.kind === "sealed" && subjects === null;
  return (
    <div className="narrow">
      <p>
        <Link to={`/auctions/${auction.id}`}>Back to the auction</Link>
      </p>
      <h1>Technical evaluation</h1>
      <p className="lead">{auction.title}</p>
      {notice ? (
        <Alert title="Done" tone="success" focus>
          <p>{notice === "scored" && scoredSeller ? `Scores saved for ${scoredSeller.name}.` : NOTICES[notice]}</p>
        </Alert>
      ) : null}
      <ErrorSummary formErrors={summary.formErrors} fieldErrors={summary.fieldErrors} submissionKey={answer} />
      <p>
        {`Each seller is scored from 0 to 10 on each criterion; the technical score is the weighted average, out of 100. The ranking counts price for ${auction.priceWeightPercent} % and the technical score for ${100 - auction.priceWeightPercent} %.`}
        {auction.technicalPassMark !== null
          ? ` Sellers under a technical score of ${auction.technicalPassMark}, or judged technically unacceptable, cannot win.`
          : " Sellers judged technically unacceptable cannot win."}
      </p>
      {auction.evaluationCompleted ? (
        <p>
          <strong>The evaluation is complete.</strong> Its scores can no longer change.
        </p>
      ) : null}

      <Criteria data={loaderData} lastResult={refusedForm === "criterion" ? result : undefined} />

      {loaderData.schedules ? <SealedSchedules schedules={loaderData.schedules} /> : null}

      <section aria-labelledby="sellers">
        <h2 id="sellers">{auction.kind === "sealed" ? "Bids" : "Sellers"}</h2>
        {sealedNotYet ? (
          <p>Bids stay sealed until the submission deadline: they can be scored after it.</p>
        ) : subjects?.length === 0 ? (
          <p>{auction.kind === "sealed" ? "No bid was received." : "No seller to evaluate."}</p>
        ) : (
          (subjects ?? []).map((subject) => (
            <SubjectSheet
              key={subject.organizationId}
              subject={subject}
              data={loaderData}
              lastResult={sheetOf === subject.organizationId ? result : undefined}
            />
          ))
        )}
        {auction.kind === "reverse" && loaderData.criteriaEditable && criteria.length > 0 ? (
          <p className="field__hint">
            Pre-qualification: only sellers who are qualified here can be invited to this reverse auction.
          </p>
        ) : null}
      </section>

      {canEvaluate && loaderData.scoringOpen && criteria.length > 0 && subjects && subjects.length > 0 ? (
        <section aria-labelledby="complete" className="card">
          <h2 id="complete">Complete the evaluation</h2>
          {answer?.confirmComplete ? (
            <>
              <p>Once complete, the scores can no longer change and the buyer is e-mailed to award the auction.</p>
              <Form method="post" className="button-row">
                <input type="hidden" name="intent" value="complete" />
                <input type="hidden" name="confirm" value="yes" />
                <SubmitButton>Yes, mark it complete</SubmitButton>
                <Link to=".">No, go back</Link>
              </Form>
            </>
          ) : (
            <Form method="post">
              <input type="hidden" name="intent" value="complete" />
              <SubmitButton>Mark the evaluation complete</SubmitButton>
            </Form>
          )}
        </section>
      ) : null}

      {rankings ? <Rankings rankings={rankings} /> : null}
    </div>
  );
}

/**
 * The page's one error summary, from the server's answer: a message at a field links to its control
 * (the criterion form's, or the refused seller's sheet's), any other is form-wide.
 */
function summaryOf(
  result: SubmissionResult<string[]> | undefined,
  organizationId: number | undefined,
): { formErrors: string[]; fieldErrors: FieldErrorLink[] } {
  const formErrors: string[] = [];
  const fieldErrors: FieldErrorLink[] = [];
  for (const [name, messages] of Object.entries(result?.error ?? {})) {
    const fieldId = controlIdOf(name, organizationId);
    for (const message of messages ?? []) {
      if (fieldId) fieldErrors.push({ fieldId, message });
      else formErrors.push(message);
    }
  }
  return { formErrors, fieldErrors };
}

function controlIdOf(name: string, organizationId: number | undefined): string | undefined {
  if (name === "name") return "criterion-name";
  if (name === "weight") return "criterion-weight";
  if (organizationId === undefined) return undefined;
  if (name === "unacceptable_reason") return reasonFieldId(organizationId);
  const criterionField = /^(score|comment)_(\d+)$/.exec(name);
  if (!criterionField) return undefined;
  const criterionId = Number(criterionField[2]);
  return criterionField[1] === "score"
    ? scoreFieldId(organizationId, criterionId)
    : commentFieldId(organizationId, criterionId);
}

/**
 * A form's state from the server's answer. The page's forms send as they are, with JavaScript too:
 * the server answers each refusal (one problem at a time across the criteria, with the criteria it
 * holds). Messages and what was typed show only with the answer they came in, so a later success
 * (a redirect to the page) shows the stored values.
 */
function useServerAnsweredForm(id: string, lastResult: SubmissionResult<string[]> | undefined) {
  const [form, fields] = useForm<Record<string, string>>({ id, lastResult });
  return {
    formProps: getFormProps(form, { ariaAttributes: false }),
    typed: lastResult ? (name: string) => typedText(fields[name]?.initialValue) : undefined,
    fieldError: (name: string) => (lastResult ? fields[name]?.errors : undefined),
  };
}

const typedText = (initialValue: unknown) => (typeof initialValue === "string" ? initialValue : "");

function Criteria({ data, lastResult }: { data: LoaderData; lastResult?: SubmissionResult<string[]> }) {
  const { criteria, canEvaluate, criteriaEditable } = data;
  const changeable = canEvaluate && criteriaEditable;
  const { formProps, typed, fieldError } = useServerAnsweredForm("criterion", lastResult);
  const totalWeight = criteria.reduce((sum, criterion) => sum + criterion.weight, 0);
  return (
    <section aria-labelledby="criteria">
      <h2 id="criteria">Criteria</h2>
      {criteria.length === 0 ? (
        <p>No criteria yet: bids are then ranked by price alone.</p>
      ) : (
        <table className="table">
          <caption className="visually-hidden">The criteria and their weights</caption>
          <thead>
            <tr>
              <th scope="col">Criterion</th>
              <th scope="col">Weight</th>
              {changeable ? <th scope="col">Action</th> : null}
            </tr>
          </thead>
          <tbody>
            {criteria.map((criterion) => (
              <tr key={criterion.id}>
                <th scope="row">{criterion.name}</th>
                <td>{`${criterion.weight} (${Math.round((criterion.weight / totalWeight) * 100)} % of the technical score)`}</td>
                {changeable ? (
                  <td>
                    <RowActionForm intent="remove-criterion" name="criterionId" value={criterion.id}>
                      Remove<span className="visually-hidden">{` ${criterion.name}`}</span>
                    </RowActionForm>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {changeable ? (
        <Form method="post" className="stack" {...formProps}>
          <input type="hidden" name="intent" value="add-criterion" />
          <TextInput
            id="criterion-name"
            name="name"
            label="Criterion"
            hint="For example: Safety record, Method, Equipment, Schedule."
            errors={fieldError("name")}
            inputProps={{ defaultValue: typed?.("name"), autoComplete: "off", maxLength: 100 }}
          />
          <TextInput
            id="criterion-weight"
            name="weight"
            label="Weight (1 to 100)"
            hint="How much it counts against the other criteria."
            errors={fieldError("weight")}
            inputProps={{ defaultValue: typed?.("weight"), inputMode: "numeric", autoComplete: "off" }}
          />
          <SubmitButton secondary>Add criterion</SubmitButton>
        </Form>
      ) : canEvaluate ? (
        <p className="field__hint">Bidding has started: the criteria are fixed.</p>
      ) : null}
    </section>
  );
}

function SubjectSheet({
  subject,
  data,
  lastResult,
}: {
  subject: Subject;
  data: LoaderData;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { criteria, canEvaluate, scoringOpen } = data;
  const editable = canEvaluate && scoringOpen && criteria.length > 0;
  const id = subject.organizationId;
  const { formProps, typed, fieldError } = useServerAnsweredForm(`seller-${id}`, lastResult);
  const summary = `${subject.technical === null ? "Technical score: not yet scored" : `Technical score: ${subject.technical} of 100`}. ${subject.result}.`;
  if (!editable) {
    return (
      <section aria-labelledby={`seller-${id}`} className="card">
        <h3 id={`seller-${id}`}>{subject.name}</h3>
        {subject.bidText ? <p>{subject.bidText}</p> : null}
        <p>{summary}</p>
        {criteria.length > 0 ? (
          <dl className="summary-list">
            {criteria.map((criterion) => (
              <div key={criterion.id}>
                <dt>{criterion.name}</dt>
                <dd>
                  {subject.scores[criterion.id] === undefined ? "Not scored" : `${subject.scores[criterion.id]} of 10`}
                  {subject.comments[criterion.id] ? `: ${subject.comments[criterion.id]}` : ""}
                </dd>
              </div>
            ))}
          </dl>
        ) : null}
        {subject.unacceptable ? <p>{`Technically unacceptable: ${subject.unacceptableReason}`}</p> : null}
      </section>
    );
  }
  const reasonId = reasonFieldId(id);
  const unacceptableChecked = typed ? typed("unacceptable") === "yes" : subject.unacceptable;
  const reasonErrors = fieldError("unacceptable_reason");
  return (
    <Form method="post" className="card stack" {...formProps}>
      <input type="hidden" name="intent" value="score" />
      <input type="hidden" name="organizationId" value={id} />
      <fieldset className="fieldset">
        <legend className="fieldset__legend">{subject.name}</legend>
        {subject.bidText ? <p>{subject.bidText}</p> : null}
        <p>{summary}</p>
        {criteria.map((criterion) => {
          const scoreId = scoreFieldId(id, criterion.id);
          const commentId = commentFieldId(id, criterion.id);
          const stored = subject.scores[criterion.id];
          return (
            <div key={criterion.id} className="stack">
              <TextInput
                id={scoreId}
                name={`score_${criterion.id}`}
                label={`Score for ${criterion.name}`}
                hint="0 to 10; leave empty if not scored yet."
                errors={fieldError(scoreField(criterion.id))}
                inputProps={{
                  defaultValue: typed ? typed(scoreField(criterion.id)) : stored === undefined ? "" : String(stored),
                  inputMode: "numeric",
                  autoComplete: "off",
                }}
              />
              <TextAreaInput
                id={commentId}
                name={`comment_${criterion.id}`}
                label={`Comment on ${criterion.name} (optional)`}
                rows={2}
                errors={fieldError(commentField(criterion.id))}
                defaultValue={typed ? typed(commentField(criterion.id)) : (subject.comments[criterion.id] ?? "")}
              />
            </div>
          );
        })}
        <div className="checkbox">
          <input
            className="checkbox__input"
            type="checkbox"
            id={`unacceptable-${id}`}
            name="unacceptable"
            value="yes"
            defaultChecked={unacceptableChecked}
          />
          <label className="checkbox__label" htmlFor={`unacceptable-${id}`}>
            Technically unacceptable (this seller cannot win)
          </label>
        </div>
        <FieldFrame
          id={reasonId}
          errorId={`${reasonId}-error`}
          label="Why it is unacceptable"
          hint="Required when ticked above."
          errors={reasonErrors}
        >
          <textarea
            id={reasonId}
            name="unacceptable_reason"
            rows={2}
            defaultValue={typed ? typed("unacceptable_reason") : subject.unacceptableReason}
            className={reasonErrors ? "textarea input--error" : "textarea"}
            aria-invalid={reasonErrors ? true : undefined}
            aria-describedby={describedBy(reasonId, `${reasonId}-error`, "hint", reasonErrors)}
          />
        </FieldFrame>
        <SubmitButton secondary>Save scores</SubmitButton>
      </fieldset>
    </Form>
  );
}

type Ranking = NonNullable<LoaderData["rankings"]>[number];

/** One ranking for an auction of one lot; for several, one per lot, each lot's prices compared on their own. */
function Rankings({ rankings }: { rankings: Ranking[] }) {
  const several = rankings.some((ranking) => ranking.lot !== null);
  return (
    <section aria-labelledby="ranking">
      <h2 id="ranking">Ranking</h2>
      {several ? (
        <>
          <p>
            Each lot is ranked on its own: a seller's price score compares their price on the lot with the lowest
            qualified price on that lot. The technical score is the seller's, the same on every lot.
          </p>
          {rankings.map((ranking, index) => (
            <section key={ranking.lot ?? index} aria-labelledby={`ranking-lot-${index + 1}`}>
              <h3 id={`ranking-lot-${index + 1}`}>{ranking.lot}</h3>
              {ranking.rows.length === 0 ? (
                <p>No bids on this lot.</p>
              ) : (
                <RankingTable
                  label={`The ranking of ${ranking.lot}`}
                  caption={`${ranking.lot}: bids ranked by combined score`}
                  rows={ranking.rows}
                />
              )}
            </section>
          ))}
        </>
      ) : (
        rankings.map((ranking) => (
          <RankingTable key="one" label="The ranking" caption="Bids ranked by combined score" rows={ranking.rows} />
        ))
      )}
    </section>
  );
}
