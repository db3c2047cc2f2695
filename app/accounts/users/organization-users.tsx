import { data, Form, Link, redirect } from "react-router";
import { z } from "zod";
import { Alert } from "~/forms/alert";
import { ErrorSummary, type FieldErrorLink } from "~/forms/error-summary";
import { idField } from "~/forms/id-schema";
import { SubmitButton } from "~/forms/submit-button";
import { TextInput } from "~/forms/text-input";
import { textField } from "~/forms/text-schema";
import { pageTitle } from "~/layout/page-title";
import { appServicesContext } from "~/platform/app-context";
import { readFormBody } from "~/platform/request-body.server";
import { emailField } from "../schemas";
import { requireUser } from "../sessions/auth.server";
import type { CurrentUser } from "../sessions/current-user";
import type { Route } from "./+types/organization-users";
import {
  findRemovable,
  inviteUser,
  listOrganizationUsers,
  type Removal,
  removeUser,
} from "./organization-users.server";

// /account/users: the organization's users. Its administrator invites people by e-mail and removes
// them (after a confirmation); everyone else sees the list.

const invitationSchema = z.object({
  intent: z.literal("invite"),
  email: emailField(),
  firstName: textField({ error: "Please enter a first name" }).min(1, "Please enter a first name").max(100),
  lastName: textField({ error: "Please enter a last name" }).min(1, "Please enter a last name").max(100),
});
// The page names what to remove by its address (a user or a pending invitation alike); a user id,
// as before issue 17, still works for the users the list shows.
const removalSchema = z.union([
  z.object({
    intent: z.literal("remove"),
    email: textField().min(1).max(254),
    confirm: z.literal("yes").optional(),
  }),
  z.object({
    intent: z.literal("remove"),
    userId: idField("Please choose a user"),
    confirm: z.literal("yes").optional(),
  }),
]);

type Member = CurrentUser & { organizationId: number };

function requireMember(request: Request, context: Route.LoaderArgs["context"]): Member {
  const user = requireUser(request, context);
  if (user.role === 1 || !user.organizationId) throw data(null, { status: 403 });
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
  const form = Object.fromEntries(await readFormBody(request));

  if (form.intent === "remove") {
    const removal = removalSchema.safeParse(form);
    if (!removal.success) return data({ error: "Please choose a user to remove." }, { status: 400 });
    const target: Removal = "email" in removal.data ? { email: removal.data.email } : { userId: removal.data.userId };
    if (removal.data.confirm !== "yes") {
      const email = await findRemovable(services.db, user, target);
      if (!email) return data({ error: "That user is not in your organization." }, { status: 404 });
      return { confirmRemoval: email };
    }
    const outcome = await removeUser(services.db, user, target);
    if (outcome === "self") return data({ error: "You cannot remove yourself." }, { status: 409 });
    if (outcome === "not-found") return data({ error: "That user is not in your organization." }, { status: 404 });
    return redirect("/account/users?done=removed");
  }

  const invitation = invitationSchema.safeParse(form);
  const typed = {
    email: String(form.email ?? ""),
    firstName: String(form.firstName ?? ""),
    lastName: String(form.lastName ?? ""),
  };
  if (!invitation.success) {
    const fieldErrors = Object.fromEntries(
      invitation.error.issues.map((issue) => [String(issue.path[0] ?? "intent"), issue.message]),
    );
    return data({ fieldErrors, typed }, { status: 400 });
  }
  // The same answer whether or not the address already has an account (issue 17): its owner is told.
  await inviteUser(services, user, invitation.data);
  return redirect("/account/users?done=invited");
}

export function meta() {
  return [{ title: pageTitle("Your organization's users") }];
}

const FIELDS = [
  { name: "email", label: "Email", type: "email" },
  { name: "firstName", label: "First Name", type: "text" },
  { name: "lastName", label: "Last Name", type: "text" },
] as const;

export default function OrganizationUsers({ loaderData, actionData }: Route.ComponentProps) {
  const { members, isAdmin, done } = loaderData;
  const fieldErrors: Record<string, string> = actionData && "fieldErrors" in actionData ? actionData.fieldErrors : {};
  const typed = actionData && "typed" in actionData ? actionData.typed : undefined;
  const error = actionData && "error" in actionData ? actionData.error : undefined;
  const confirmRemoval = actionData && "confirmRemoval" in actionData ? actionData.confirmRemoval : undefined;
  const links: FieldErrorLink[] = FIELDS.filter((field) => fieldErrors[field.name]).map((field) => ({
    fieldId: `invite-${field.name}`,
    message: fieldErrors[field.name] ?? "",
  }));
  return (
    <div className="narrow">
      <p>
        <Link to="/account">Your account</Link>
      </p>
      <h1>Your organization's users</h1>
      <ErrorSummary formErrors={error ? [error] : []} fieldErrors={links} submissionKey={actionData} />
      {done ? (
        <Alert title={done === "invited" ? "Invitation sent" : "User removed"} tone="success">
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
                    <Form method="post">
                      <input type="hidden" name="intent" value="remove" />
                      <input type="hidden" name="email" value={member.email} />
                      <button type="submit" className="link-button">
                        {`Remove ${member.email}`}
                      </button>
                    </Form>
                  )}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {isAdmin ? (
        <section aria-labelledby="invite">
          <h2 id="invite">Invite a user</h2>
          <Form method="post" className="stack" noValidate>
            <input type="hidden" name="intent" value="invite" />
            {FIELDS.map((field) => (
              <TextInput
                key={field.name}
                id={`invite-${field.name}`}
                name={field.name}
                label={field.label}
                type={field.type}
                errors={fieldErrors[field.name] ? [fieldErrors[field.name] ?? ""] : undefined}
                inputProps={{ defaultValue: typed?.[field.name] ?? "", required: true }}
              />
            ))}
            <SubmitButton>Send invitation</SubmitButton>
          </Form>
        </section>
      ) : (
        <p>Your organization's administrator can invite and remove users.</p>
      )}
    </div>
  );
}
