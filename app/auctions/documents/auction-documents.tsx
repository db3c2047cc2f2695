import { type SubmissionResult, useForm } from "@conform-to/react";
import { data, Form, Link, redirect } from "react-router";
import type { z } from "zod";
import { Alert } from "~/forms/alert";
import { useAnswerOnThisPage } from "~/forms/answer-on-this-page";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { parseSubmission } from "~/forms/parse-submission.server";
import { RowActionForm } from "~/forms/row-action-form";
import { useSubmitAttempts } from "~/forms/submit-attempts";
import { SubmitButton } from "~/forms/submit-button";
import { describedBy, FieldFrame } from "~/forms/text-input";
import { pageTitle } from "~/layout/page-title";
import { parseId } from "~/shared/ids";
import { readsOnly } from "../auction-access.server";
import type { Route } from "./+types/auction-documents";
import {
  addDocument,
  documentsEditable,
  findDocument,
  listDocuments,
  removeDocument,
  requireAuctionViewer,
} from "./auction-documents.server";
import { deleteDocumentSchema, uploadDocumentBrowserSchema, uploadDocumentSchema } from "./document-schema";
import {
  ACCEPT_ATTRIBUTE,
  DOCUMENT_HINT,
  DOCUMENT_MESSAGES,
  formatBytes,
  MAX_DOCUMENT_BYTES,
  typeLabel,
} from "./document-types";
import { discardBody, readLimitedForm } from "./upload-body.server";

// /auctions/:auctionId/documents: the auction's own side uploads documents (one per upload) and
// deletes them after a confirmation, while the terms may still change; staff see the list. A plain
// multipart form, so it works without JavaScript; with it, a file that is too big is caught before
// it is sent.

/** The body of one upload: the file and the form's few fields. */
const MAX_UPLOAD_BODY_BYTES = MAX_DOCUMENT_BYTES + 64 * 1024;

/** The upload form's id: its file field is `document-file`. */
const FORM_ID = "document";

type ActionData = { result?: SubmissionResult<string[]>; confirmDelete?: { id: number; fileName: string } };

/** A refusal before the body was read (or for a body that could not be): the message alone. */
const refusal = (status: number, message: { fieldError?: string; formError?: string }) =>
  data<ActionData>(
    {
      result: {
        status: "error",
        error: message.fieldError ? { file: [message.fieldError] } : { "": [message.formError ?? ""] },
      },
    },
    { status },
  );

const reply = (status: number, result: SubmissionResult<string[]>) => data<ActionData>({ result }, { status });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { auction, viewer, db } = await requireAuctionViewer(request, context, params.auctionId);
  if (viewer.kind === "seller") throw data(null, { status: 404 });
  const documents = await listDocuments(db, auction.id);
  const done = new URL(request.url).searchParams.get("done");
  return {
    auction: { id: auction.id, title: auction.title },
    documents: documents.map((document) => ({
      id: document.id,
      fileName: document.fileName,
      type: typeLabel(document.contentType),
      size: formatBytes(document.sizeBytes),
    })),
    owner: viewer.kind === "owner",
    editable: documentsEditable(auction),
    done: done === "added" || done === "removed" ? done : undefined,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, auction, viewer, db } = await requireAuctionViewer(request, context, params.auctionId);
  if (viewer.kind !== "owner") {
    await discardBody(request);
    throw data(null, { status: readsOnly(viewer) ? 403 : 404 });
  }
  // Checked again under the auction's lock; this spares reading an upload that would be refused.
  if (!documentsEditable(auction)) {
    await discardBody(request);
    return refusal(409, { formError: DOCUMENT_MESSAGES.locked });
  }
  const body = await readLimitedForm(request, MAX_UPLOAD_BODY_BYTES);
  if (body.kind === "too-large") return refusal(413, { fieldError: DOCUMENT_MESSAGES.tooBig });
  if (body.kind === "malformed") return refusal(body.status, { formError: DOCUMENT_MESSAGES.unreadable });
  const form = body.form;
  const actor = { userId: user.id, organizationId: viewer.organizationId };
  const documentsPage = `/auctions/${auction.id}/documents`;

  if (form.get("intent") === "delete") {
    const submission = parseSubmission(form, { schema: deleteDocumentSchema });
    const documentId = submission.status === "success" ? parseId(submission.value.documentId) : null;
    const document = documentId ? await findDocument(db, auction.id, documentId) : undefined;
    if (!document) return reply(404, submission.reply({ formErrors: [DOCUMENT_MESSAGES.gone] }));
    if (submission.status === "success" && submission.value.confirm !== "yes") {
      return { confirmDelete: document } satisfies ActionData;
    }
    const outcome = await removeDocument(db, auction.id, actor, document.id);
    if (outcome.kind === "refused") return reply(outcome.status, submission.reply({ formErrors: [outcome.message] }));
    return redirect(`${documentsPage}?done=removed`);
  }

  const submission = parseSubmission(form, { schema: uploadDocumentSchema });
  if (submission.status !== "success") return reply(400, submission.reply());
  const file = submission.value.file;
  const outcome = await addDocument(db, auction.id, actor, {
    name: file.name,
    bytes: Buffer.from(await file.arrayBuffer()),
  });
  if (outcome.kind === "refused") {
    return reply(
      outcome.status,
      outcome.field
        ? submission.reply({ fieldErrors: { file: [outcome.message] } })
        : submission.reply({ formErrors: [outcome.message] }),
    );
  }
  return redirect(`${documentsPage}?done=added`);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Documents: ${loaderData.auction.title}` : "Documents") }];
}

export default function AuctionDocuments({ loaderData, actionData }: Route.ComponentProps) {
  const { auction, documents, owner, editable, done } = loaderData;
  const answer: ActionData | undefined = actionData;
  // The last answer; a new page (the redirect after a success) clears what the browser said.
  const lastResult = useAnswerOnThisPage(answer?.result);
  const [form, fields] = useForm<{ intent: string; file: File }, z.output<typeof uploadDocumentBrowserSchema>>({
    id: FORM_ID,
    lastResult,
    // What the browser said holds until the server answers again.
    ...validatedBy(uploadDocumentBrowserSchema, { constraint: false, shouldRevalidate: "onSubmit" }),
  });
  const { formProps, submissionKey } = useSubmitAttempts(form, answer);
  const fieldErrors = fields.file.errors;
  const fieldError = fieldErrors?.length ? fieldErrors.join(" ") : undefined;
  const confirm = answer?.confirmDelete;
  const page = `/auctions/${auction.id}/documents`;
  const changeable = owner && editable;

  return (
    <div className="narrow">
      <p>
        <a href={`/auctions/${auction.id}`}>Back to the auction</a>
      </p>
      <h1>Documents</h1>
      <p className="lead">{auction.title}</p>
      <ErrorSummary
        formErrors={form.errors}
        fieldErrors={(fieldErrors ?? []).map((message) => ({ fieldId: fields.file.id, message }))}
        submissionKey={submissionKey}
      />
      {done ? (
        <Alert title={done === "added" ? "Document uploaded" : "Document deleted"} tone="success" focus>
          <p>
            {done === "added"
              ? "Invited sellers can download it once the auction is published."
              : "It is no longer part of this auction."}
          </p>
        </Alert>
      ) : null}
      {confirm && changeable ? (
        <section aria-labelledby="confirm-delete" className="card">
          <h2 id="confirm-delete">{`Delete ${confirm.fileName}?`}</h2>
          <p>Invited sellers will no longer be able to download it. This cannot be undone.</p>
          <Form method="post" action={page} className="button-row">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="documentId" value={confirm.id} />
            <input type="hidden" name="confirm" value="yes" />
            <SubmitButton>Yes, delete</SubmitButton>
            <Link to={page}>No, go back</Link>
          </Form>
        </section>
      ) : null}

      {documents.length === 0 ? (
        <p>This auction has no documents yet.</p>
      ) : (
        <table className="data-table">
          <caption className="visually-hidden">Documents of this auction</caption>
          <thead>
            <tr>
              <th scope="col">Document</th>
              <th scope="col">Type</th>
              <th scope="col">Size</th>
              {changeable ? <th scope="col">Action</th> : null}
            </tr>
          </thead>
          <tbody>
            {documents.map((document) => (
              <tr key={document.id}>
                <th scope="row">
                  {/* A plain link: the file is a download, not a page of the app. */}
                  <a href={`${page}/${document.id}`} download>
                    {document.fileName}
                  </a>
                </th>
                <td>{document.type}</td>
                <td>{document.size}</td>
                {changeable ? (
                  <td>
                    <RowActionForm intent="delete" name="documentId" value={document.id} action={page}>
                      Delete<span className="visually-hidden">{` ${document.fileName}`}</span>
                    </RowActionForm>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}

      {changeable ? (
        <section aria-labelledby="upload-heading">
          <h2 id="upload-heading">Add a document</h2>
          <Form
            method="post"
            action={page}
            encType="multipart/form-data"
            {...formProps}
            className="stack"
            key={documents.map((document) => document.id).join(",")}
          >
            <input type="hidden" name="intent" value="upload" />
            <FieldFrame
              id={fields.file.id}
              errorId={fields.file.errorId}
              label="Document"
              hint={DOCUMENT_HINT}
              errors={fieldError ? [fieldError] : undefined}
            >
              <input
                id={fields.file.id}
                name={fields.file.name}
                type="file"
                required
                accept={ACCEPT_ATTRIBUTE}
                className={fieldError ? "input input--error" : "input"}
                aria-invalid={fieldError ? true : undefined}
                aria-describedby={describedBy(
                  fields.file.id,
                  fields.file.errorId,
                  DOCUMENT_HINT,
                  fieldError ? [fieldError] : undefined,
                )}
              />
            </FieldFrame>
            <SubmitButton>Upload</SubmitButton>
          </Form>
        </section>
      ) : owner ? (
        <p>{DOCUMENT_MESSAGES.locked}</p>
      ) : (
        <p>Only the organization that runs this auction can add or remove its documents.</p>
      )}
    </div>
  );
}
