import { data, Link, redirect } from "react-router";
import { pageTitle } from "~/layout/page-title";
import { loadEditForm, parseEditSubmission } from "~/registration/changes/registration-edit.server";
import { readStoredRegistration } from "~/registration/changes/stored-registration.server";
import { StoredRegistrationForm } from "~/registration/changes/stored-registration-form";
import { keepPageAfterRefusal } from "~/registration/form/registration-form-page";
import { appServicesContext } from "~/server/app-context";
import { requireUser } from "~/sessions/auth.server";
import { utcDay } from "~/shared/dates";
import { Role } from "~/shared/roles";
import { RegistrationDetails } from "../details/registration-details";
import { loadRegistration } from "../details/registration-details.server";
import type { Route } from "./+types/organization-profile";
import { organizationRegistrationId, saveOrganizationProfile } from "./organization-profile.server";

// /account/organization: the organization's profile, its approved registration. The administrator
// changes it with the registration form's sections (the card has its own page); the other users
// read it. Staff see every saved change in the registration's audit log.

async function requireProfile(request: Request, context: Route.LoaderArgs["context"]) {
  const user = requireUser(request, context);
  if (user.role === Role.Staff || !user.organizationId) throw data(null, { status: 403 });
  const { db } = context.get(appServicesContext);
  const registrationId = await organizationRegistrationId(db, user.organizationId);
  if (!registrationId) throw data(null, { status: 404 });
  return { user: { ...user, organizationId: user.organizationId }, registrationId };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, registrationId } = await requireProfile(request, context);
  const services = context.get(appServicesContext);
  if (!user.isOrganizationAdmin) {
    const registration = await loadRegistration(services.db, registrationId);
    if (!registration) throw data(null, { status: 404 });
    return { editable: false as const, registration, today: utcDay(new Date()) };
  }
  const stored = await readStoredRegistration(services.db, registrationId);
  if (!stored) throw data(null, { status: 404 });
  return { editable: true as const, form: await loadEditForm(services, stored, { keepPastDates: true }) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user, registrationId } = await requireProfile(request, context);
  if (!user.isOrganizationAdmin) throw data(null, { status: 403 });
  const services = context.get(appServicesContext);
  const stored = await readStoredRegistration(services.db, registrationId);
  if (!stored) throw data(null, { status: 404 });
  const parsed = await parseEditSubmission(request, services, stored, { keepPastDates: true, keepFeedback: true });
  if (parsed.kind === "answer") return data(parsed.answer, { status: parsed.status });
  const saved = await saveOrganizationProfile(services, user.organizationId, user.id, parsed);
  if (saved.kind === "not-found") throw data(null, { status: 404 });
  return redirect(`/account?done=${saved.changes > 0 ? "profile-saved" : "profile-unchanged"}`);
}

export const shouldRevalidate = keepPageAfterRefusal;

export function meta() {
  return [{ title: pageTitle("Organization profile") }];
}

export default function OrganizationProfile({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="narrow">
      <p>
        <Link to="/account">Your account</Link>
      </p>
      <h1>Organization profile</h1>
      {loaderData.editable ? (
        <>
          <p>
            This is what buyers, consultants and our staff know of your organization. Keep your insurance, WCB and
            certifications current: we e-mail you 30 and 7 days before one expires. Our staff can see each change you
            save.
          </p>
          <StoredRegistrationForm
            id="organization-profile"
            form={loaderData.form}
            answer={actionData}
            purpose="profile"
          />
        </>
      ) : (
        <>
          <p>Only your organization's administrator can change the profile.</p>
          <RegistrationDetails registration={loaderData.registration} today={loaderData.today} />
        </>
      )}
    </div>
  );
}
