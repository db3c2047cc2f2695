import { data, Form, Link, redirect } from "react-router";
import { mayPractise } from "~/auctions/practice/practice.server";
import { Alert } from "~/forms/alert";
import { parseSubmission } from "~/forms/parse-submission.server";
import { SubmitButton } from "~/forms/submit-button";
import { pageTitle } from "~/layout/page-title";
import { NotificationItem, toNotificationViews } from "~/notifications/notification-item";
import { NOTIFICATION_LABELS, OPTIONAL_NOTIFICATION_KINDS } from "~/notifications/notification-kinds";
import { RECENT_NOTIFICATIONS } from "~/notifications/notification-pages";
import { listNotifications, optOutsOf, saveNotificationChoices } from "~/notifications/notifications.server";
import { CARD_PATH } from "~/payments/card-replacement/card-schema";
import { SubscriptionSummary, toSubscriptionView } from "~/payments/subscription-summary";
import { sellerSubscriptionOf } from "~/payments/subscriptions/seller-subscription.server";
import { readFormBody } from "~/platform/request-body.server";
import { organizationSummary } from "~/registration/organization-profile/organization-profile.server";
import { appServicesContext } from "~/server/app-context";
import { requireUser } from "~/sessions/auth.server";
import { ROLE_NAMES, Role } from "~/shared/roles";
import { NOTIFICATION_KINDS } from "~db/notification-kinds";
import type { Route } from "./+types/account";
import { CHOOSE_FROM_THE_LIST, notificationChoicesSchema } from "./notification-choices-schema";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ");
  const db = context.get(appServicesContext).db;
  const done = new URL(request.url).searchParams.get("done");
  // Independent reads, sent together.
  const [subscription, organization, recent, optOuts, practise] = await Promise.all([
    user.role === Role.Seller && user.organizationId ? sellerSubscriptionOf(db, user.organizationId) : undefined,
    user.role !== Role.Staff && user.organizationId ? organizationSummary(db, user.organizationId) : null,
    // One more than shown, to know whether to link to the rest.
    user.role === Role.Staff ? [] : listNotifications(db, user.id, RECENT_NOTIFICATIONS + 1),
    user.role === Role.Staff ? ([] as Awaited<ReturnType<typeof optOutsOf>>) : optOutsOf(db, user.id),
    // Approved sellers in good standing may try a practice auction (issue 21, decision 022).
    user.role === Role.Seller && user.organizationId ? mayPractise(db, user.organizationId) : undefined,
  ]);
  return {
    // Without their ids: counted across every user's notifications (other sellers' "outbid" ones
    // included), their gaps would tell a seller how busy an auction is (issue 17).
    notifications: toNotificationViews(recent.slice(0, RECENT_NOTIFICATIONS)),
    moreNotifications: recent.length > RECENT_NOTIFICATIONS,
    optedOut: optOuts,
    notificationsSaved: done === "notifications-saved",
    profileSaved: done === "profile-saved" ? "saved" : done === "profile-unchanged" ? "unchanged" : undefined,
    organization,
    name: name || null,
    email: user.email,
    roleName: ROLE_NAMES[user.role],
    organizationName: user.organizationName,
    isStaff: user.role === Role.Staff,
    hasOrganization: user.role !== Role.Staff && user.organizationId !== null,
    // Buyers and consultants run auctions, so they are invoiced (issue 19).
    hasInvoices: (user.role === Role.Buyer || user.role === Role.Consultant) && user.organizationId !== null,
    subscription: subscription ? toSubscriptionView(subscription) : null,
    // The seller's administrator replaces the card the subscription is charged to.
    canReplaceCard: user.role === Role.Seller && user.isOrganizationAdmin,
    cardReplaced: done === "card-replaced",
    mayPractise: practise?.ok === true,
  };
}

/**
 * The optional notifications' e-mail choices. The boxes are ticked from what is saved, so a refusal
 * (only a hand-made post can choose outside the list) has nothing typed to keep and no field to mark.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const submission = parseSubmission(await readFormBody(request), { schema: notificationChoicesSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ formErrors: [CHOOSE_FROM_THE_LIST] }) }, { status: 400 });
  }
  await saveNotificationChoices(context.get(appServicesContext).db, user.id, submission.value.email);
  return redirect("/account?done=notifications-saved");
}

export function meta() {
  return [{ title: pageTitle("Your account") }];
}

export default function Account({ loaderData }: Route.ComponentProps) {
  const {
    name,
    email,
    roleName,
    organizationName,
    isStaff,
    hasOrganization,
    hasInvoices,
    subscription,
    canReplaceCard,
    cardReplaced,
    mayPractise,
    profileSaved,
    organization,
    notifications,
    moreNotifications,
    optedOut,
    notificationsSaved,
  } = loaderData;
  return (
    <div className="prose">
      <h1>Your account</h1>
      {profileSaved ? (
        <Alert title={profileSaved === "saved" ? "Profile saved" : "Nothing changed"} tone="success" focus>
          <p>
            {profileSaved === "saved"
              ? "Your organization's profile has been saved."
              : "The profile was saved as it was: nothing had changed."}
          </p>
        </Alert>
      ) : null}
      {cardReplaced ? (
        <Alert title="Card replaced" tone="success" focus>
          <p>Your card has been replaced. The yearly subscription is charged to the new card from now on.</p>
        </Alert>
      ) : null}
      <dl className="summary-list">
        <div>
          <dt>Signed in as</dt>
          <dd>{name ? `${name} (${email})` : email}</dd>
        </div>
        <div>
          <dt>Organization</dt>
          <dd>{organizationName ?? (isStaff ? "Upstream Marketplace staff" : "Not set")}</dd>
        </div>
        <div>
          <dt>Role</dt>
          <dd>{roleName}</dd>
        </div>
      </dl>
      {organization ? (
        <section aria-labelledby="organization">
          <h2 id="organization">Organization profile</h2>
          <dl className="summary-list">
            <div>
              <dt>Address</dt>
              <dd>{organization.address}</dd>
            </div>
            <div>
              <dt>Phone</dt>
              <dd>{organization.phone}</dd>
            </div>
            <div>
              <dt>Email</dt>
              <dd>{organization.email}</dd>
            </div>
            {organization.contacts.map((contact) => (
              <div key={contact.role}>
                <dt>{contact.label}</dt>
                <dd>{`${contact.name}, ${contact.email}, ${contact.phone}`}</dd>
              </div>
            ))}
          </dl>
          <p>
            <Link to="/account/organization">The whole profile</Link>: service areas, and for sellers services,
            insurance, WCB and certifications
          </p>
        </section>
      ) : null}
      {subscription ? (
        <section aria-labelledby="subscription">
          <h2 id="subscription">Subscription</h2>
          <SubscriptionSummary
            subscription={subscription}
            audience="seller"
            cardAction={canReplaceCard ? <Link to={CARD_PATH}>Replace the card</Link> : undefined}
          />
        </section>
      ) : null}
      {isStaff ? null : (
        <section aria-labelledby="notifications">
          <h2 id="notifications">Notifications</h2>
          {notificationsSaved ? (
            <Alert title="Saved" tone="success" focus>
              <p>Your e-mail choices have been saved.</p>
            </Alert>
          ) : null}
          {notifications.length === 0 ? (
            <p>Nothing yet.</p>
          ) : (
            <ul>
              {notifications.map((notification) => (
                <NotificationItem key={notification.key} notification={notification} />
              ))}
            </ul>
          )}
          {moreNotifications ? (
            <p>
              <Link to="/account/notifications">All notifications</Link>
            </p>
          ) : null}
          <Form method="post" className="stack">
            <input type="hidden" name="intent" value="notifications" />
            <fieldset className="fieldset">
              <legend className="fieldset__legend">E-mail me when</legend>
              <p className="field__hint">
                {`Always e-mailed: ${NOTIFICATION_KINDS.filter((kind) => !OPTIONAL_NOTIFICATION_KINDS.includes(kind))
                  .map((kind) => NOTIFICATION_LABELS[kind].toLowerCase())
                  .join(", ")}. Everything is listed here either way.`}
              </p>
              {OPTIONAL_NOTIFICATION_KINDS.map((kind) => (
                <div className="checkbox" key={kind}>
                  <input
                    className="checkbox__input"
                    type="checkbox"
                    id={`email-${kind}`}
                    name="email"
                    value={kind}
                    defaultChecked={!optedOut.includes(kind)}
                  />
                  <label className="checkbox__label" htmlFor={`email-${kind}`}>
                    {NOTIFICATION_LABELS[kind]}
                  </label>
                </div>
              ))}
            </fieldset>
            <SubmitButton secondary>Save e-mail choices</SubmitButton>
          </Form>
        </section>
      )}
      <h2>What you can do</h2>
      <ul>
        {isStaff ? null : (
          <li>
            <Link to="/auctions">Auctions</Link>: yours, or those you are invited to
          </li>
        )}
        {mayPractise ? (
          <li>
            <Link to="/auctions/practice">Try a practice auction</Link>: simulated bidders, nothing real
          </li>
        ) : null}
        {isStaff ? (
          <li>
            <Link to="/staff">Staff area</Link>: maintain the catalogue and review applications
          </li>
        ) : null}
        {hasOrganization ? (
          <li>
            <Link to="/account/organization">Your organization's profile</Link>: contacts, service areas and (sellers)
            services, insurance, WCB and certifications
          </li>
        ) : null}
        {hasInvoices ? (
          <li>
            <Link to="/account/invoices">Invoices</Link>: your organization's invoices and credit notes, as PDF
          </li>
        ) : null}
        {hasInvoices ? (
          <li>
            <Link to="/account/reports">Savings reports</Link>: what your awarded auctions saved against their reserves,
            by auction and month, as a chart and CSV
          </li>
        ) : null}
        {hasOrganization ? (
          <li>
            <Link to="/account/users">Your organization's users</Link>: see them, and (administrator) invite or remove
            them
          </li>
        ) : null}
        <li>
          <Link to="/forgot-password">Change your password</Link> (we e-mail you a link)
        </li>
      </ul>
    </div>
  );
}
