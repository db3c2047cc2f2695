import { getFormProps, useForm } from "@conform-to/react";
import { data, Form, redirect } from "react-router";
import { Alert } from "~/forms/alert";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { SelectField, TextField } from "~/forms/field";
import { summaryLinks } from "~/forms/form-errors";
import { parseSubmission } from "~/forms/parse-submission.server";
import { SubmitButton } from "~/forms/submit-button";
import { pageTitle } from "~/layout/page-title";
import { TableRegion } from "~/layout/table-region";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { requireStaff } from "~/sessions/auth.server";
import { utcDay } from "~/shared/dates";
import { counted } from "~/shared/words";
import { createApiToken, listApiTokens, revokeApiToken } from "../api-tokens.server";
import { API_TOKEN_LIFETIMES, apiTokenForm, apiTokenRevocation } from "../catalogue-schema";
import type { Route } from "./+types/api-tokens";

const day = (iso: string | null) => (iso ? utcDay(iso) : "Never");

export async function loader({ request, context }: Route.LoaderArgs) {
  const now = new Date().toISOString();
  const tokens = (await listApiTokens(context.get(appServicesContext).db)).map((token) => ({
    ...token,
    status: token.revokedAt ? "Revoked" : token.expiresAt <= now ? "Expired" : "Active",
  }));
  return { tokens, revoked: new URL(request.url).searchParams.get("done") === "revoked" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = requireStaff(request, context);
  const { db } = context.get(appServicesContext);
  const formData = await readFormBody(request);
  if (formData.get("intent") === "revoke") {
    // An unknown or malformed token revokes nothing; the list says which are revoked either way.
    const revocation = parseSubmission(formData, { schema: apiTokenRevocation });
    if (revocation.status === "success") await revokeApiToken(db, revocation.value.tokenId);
    return redirect("/staff/api-tokens?done=revoked");
  }
  const submission = parseSubmission(formData, { schema: apiTokenForm });
  if (submission.status !== "success") return data({ result: submission.reply(), created: null }, { status: 400 });
  const token = await createApiToken(db, {
    userId: staff.id,
    name: submission.value.name,
    lifetimeDays: Number(submission.value.lifetimeDays),
  });
  // Shown in this answer only: the database keeps just its hash.
  return { result: submission.reply({ resetForm: true }), created: { name: submission.value.name, token } };
}

export function meta() {
  return [{ title: pageTitle("API tokens") }];
}

export default function ApiTokens({ loaderData, actionData }: Route.ComponentProps) {
  const { tokens, revoked } = loaderData;
  const created = actionData?.created;
  const [form, fields] = useForm<{ name: string; lifetimeDays: string }>({
    id: "api-token",
    lastResult: actionData?.result,
    defaultValue: { name: "", lifetimeDays: "90" },
    ...validatedBy(apiTokenForm),
  });
  return (
    <div>
      <h1>API tokens</h1>
      <p>
        Scripts that maintain the catalogue through <code>/api</code> send a token as{" "}
        <code>Authorization: Bearer &lt;token&gt;</code>. A token acts for the staff member who created it.
      </p>
      {created ? (
        <Alert title="Token created" tone="success" focus="answer">
          <p>
            Copy the token for <strong>{created.name}</strong> now: it is shown only this once.
          </p>
          <p>
            <code className="token" data-testid="new-token">
              {created.token}
            </code>
          </p>
        </Alert>
      ) : null}
      {revoked && !actionData ? <Alert title="Token revoked." tone="success" focus /> : null}

      <h2>Create a token</h2>
      <Form method="post" {...getFormProps(form)} className="stack narrow">
        <ErrorSummary
          formErrors={form.errors}
          fieldErrors={summaryLinks([fields.name, fields.lifetimeDays])}
          submissionKey={actionData?.result}
        />
        <TextField
          field={fields.name}
          label="Name"
          hint="What the token is for, for example 'Catalogue import script'."
          inputProps={{ autoComplete: "off" }}
        />
        <SelectField
          field={fields.lifetimeDays}
          label="Lifetime"
          placeholder="-- Please select --"
          options={API_TOKEN_LIFETIMES.map((days) => ({ value: days, label: counted(Number(days), "day", "days") }))}
        />
        <SubmitButton>Create token</SubmitButton>
      </Form>

      <h2>Tokens</h2>
      {tokens.length === 0 ? (
        <p>There are no tokens yet.</p>
      ) : (
        <TableRegion label="API tokens">
          <table className="table">
            <caption className="visually-hidden">API tokens, newest first (dates in UTC)</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Created by</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((token) => (
                <tr key={token.id}>
                  <th scope="row">{token.name}</th>
                  <td>{token.ownerEmail}</td>
                  <td>{day(token.createdAt)}</td>
                  <td>{day(token.expiresAt)}</td>
                  <td>{day(token.lastUsedAt)}</td>
                  <td>{token.status}</td>
                  <td>
                    {token.status === "Active" ? (
                      <Form method="post">
                        <input type="hidden" name="intent" value="revoke" />
                        <input type="hidden" name="tokenId" value={token.id} />
                        <button type="submit" className="button button--secondary">
                          Revoke<span className="visually-hidden"> {token.name}</span>
                        </button>
                      </Form>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </div>
  );
}
