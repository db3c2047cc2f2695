import { getFormProps, useForm } from "@conform-to/react";
import { data, Form, Link, redirect, useLocation } from "react-router";
import { Alert } from "~/forms/alert";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { TextField } from "~/forms/field";
import { summaryLinks } from "~/forms/form-errors";
import { parseSubmission } from "~/forms/parse-submission.server";
import { RowActionForm } from "~/forms/row-action-form";
import { SubmitButton } from "~/forms/submit-button";
import { pageTitle } from "~/layout/page-title";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { requireUser } from "~/sessions/auth.server";
import type { CurrentUser } from "~/sessions/current-user";
import { Role } from "~/shared/roles";
import type { Route } from "./+types/organization-users";
import {
  findRemovable,
  inviteUser,
  listOrganizationUsers,
  type Removal,
  removeUser,
} from "./organization-users.server";
import {
  CANNOT_REMOVE_SELF,
  invitationSchema,
  NOT_IN_ORGANIZATION,
  REMOVAL_REFUSED,
  removalSchema,
} from "./organization-users-schema";

// /account/users: the organization's users. Its administrator invites people by e-mail and removes
// them (after a confirmation); everyone else sees the list.

type Member = CurrentUser & { organizationId: number };

function requireMember(request: Request, context: Route.LoaderArgs["context"]): Member {
  const user = requireUser(request, context);
  if (user.role === Role.Staff || !user.organizationId) throw data(null, { status: 403 });
  return user as Member;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireMember(request, context);
  const members = await listOrganizationUsers(context.get(appServicesContext).db, user.organizationId, user.id);
  const done = new URL(request.url).searchParams.get("done");
  return {
    members,
    isAdmin: user.isOrganizationAdmin,
    done: done === "invited" || done === "removed" ? done : undefined,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireMember(request, context);
  if (!user.isOrganizationAdmin) throw data(null, { status: 403 });
  const services = context.get(appServicesContext);
  const formData = await readFormBody(request);

  if (formData.get("intent") === "remove") {
    const removal = parseSubmission(formData, { schema: removalSchema });
    if (removal.status !== "success") {
      return data({ removal: removal.reply({ formErrors: [REMOVAL_REFUSED] }) }, { status: 400 });
    }
    const refuse = (message: string, status: number) =>
      data({ removal: removal.reply({ formErrors: [message] }) }, { status });
    const target: Removal =
      "email" in removal.value ? { email: removal.value.email } : { userId: removal.value.userId };
    if (removal.value.confirm !== "yes") {
      const email = await findRemovable(services.db, user, target);
      if (!email) return refuse(NOT_IN_ORGANIZATION, 404);
      return { confirmRemoval: email };
    }
    const outcome = await removeUser(services.db, user, target);
    if (outcome === "self") return refuse(CANNOT_REMOVE_SELF, 409);
    if (outcome === "not-found") return refuse(NOT_IN_ORGANIZATION, 404);
    return redirect("/account/users?done=removed");
  }

  const invitation = parseSubmission(formData, { schema: invitationSchema });
  if (invitation.status !== "success") return data({ invitation: invitation.reply() }, { status: 400 });
  // The same answer whether or not the address already has an account (issue 17): its owner is told.
  await inviteUser(services, user, invitation.value);
  return redirect("/account/users?done=invited");
}

export function meta() {
  return [{ title: pageTitle("Your organization's users") }];
}

export default function OrganizationUsers(props: Route.ComponentProps) {
  // Each answer starts the forms afresh, as a page load does without JavaScript: a refusal does not
  // linger on a form the next answer is not about.
  return <UsersPage key={useLocation().key} {...props} />;
}

function UsersPage({ loaderData, actionData }: Route.ComponentProps) {
  const { members, isAdmin, done } = loaderData;
  const confirmRemoval = actionData && "confirmRemoval" in actionData ? actionData.confirmRemoval : undefined;
  // The removal forms have no input: their form only reports the server's refusal.
  const [removal] = useForm({
    id: "remove",
    lastResult: actionData && "removal" in actionData ? actionData.removal : undefined,
  });
  const [invite, inviteFields] = useForm({
    id: "invite",
    lastResult: actionData && "invitation" in actionData ? actionData.invitation : undefined,
    ...validatedBy(invitationSchema),
  });
  return (
    <div className="narrow">
      <p>
        <Link to="/account">Your account</Link>
      </p>
      <h1>Your organization's users</h1>
      <ErrorSummary
        formErrors={[...(removal.errors ?? []), ...(invite.errors ?? [])]}
        fieldErrors={summaryLinks([inviteFields.email, inviteFields.firstName, inviteFields.lastName])}
        submissionKey={actionData}
      />
      {done ? (
        <Alert title={done === "invited" ? "Invitation sent" : "User removed"} tone="success" focus>
          <p>
            {done === "invited"
              ? "We have e-mailed them a link to choose their password (it works for 7 days). If they already have an account, we have told them so instead."
              : "They can no longer sign in."}
          </p>
        </Alert>
      ) : null}
      {confirmRemoval ? (
        <section aria-labelledby="confirm-removal" className="card">
          <h2 id="confirm-removal">{`Remove ${confirmRemoval}?`}</h2>
          <p>They will no longer be able to sign in. This cannot be undone.</p>
          <Form method="post" className="button-row">
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="email" value={confirmRemoval} />
            <input type="hidden" name="confirm" value="yes" />
            <SubmitButton>Yes, remove</SubmitButton>
            <Link to="/account/users">No, go back</Link>
          </Form>
        </section>
      ) : null}
      <table className="data-table">
        <caption className="visually-hidden">Users</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Status</th>
            {isAdmin ? <th scope="col">Action</th> : null}
          </tr>
        </thead>
        <tbody>
          {members.map((member) => (
            <tr key={member.email}>
              <th scope="row">{[member.firstName, member.lastName].filter(Boolean).join(" ") || "—"}</th>
              <td>{member.email}</td>
              <td>{`${member.status === "active" ? "Active" : "Invited"}${member.isOrganizationAdmin ? ", administrator" : ""}`}</td>
              {isAdmin ? (
                <td>
                  {member.isSelf ? (
                    "You"
                  ) : (
                    <RowActionForm intent="remove" name="email" value={member.email}>
                      {`Remove ${member.email}`}
                    </RowActionForm>
                  )}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {isAdmin ? (
        <section aria-labelledby="invite-heading">
          <h2 id="invite-heading">Invite a user</h2>
          <Form method="post" {...getFormProps(invite)} className="stack">
            <input type="hidden" name="intent" value="invite" />
            <TextField field={inviteFields.email} label="Email" type="email" />
            <TextField field={inviteFields.firstName} label="First Name" />
            <TextField field={inviteFields.lastName} label="Last Name" />
            <SubmitButton>Send invitation</SubmitButton>
          </Form>
        </section>
      ) : (
        <p>Your organization's administrator can invite and remove users.</p>
      )}
    </div>
  );
}
