import { Link } from "react-router";
import { pageTitle } from "~/layout/page-title";
import { SubscriptionSummary, toSubscriptionView } from "~/payments/subscription-summary";
import { appServicesContext } from "~/platform/app-context";
import { sellerSubscriptionOf } from "~/review/seller-subscription.server";
import type { Route } from "./+types/account";
import { requireUser } from "./auth.server";
import { ROLE_NAMES } from "./current-user";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ");
  const subscription =
    user.role === 3 && user.organizationId
      ? await sellerSubscriptionOf(context.get(appServicesContext).db, user.organizationId)
      : undefined;
  return {
    name: name || null,
    email: user.email,
    roleName: ROLE_NAMES[user.role],
    organizationName: user.organizationName,
    isStaff: user.role === 1,
    hasOrganization: user.role !== 1 && user.organizationId !== null,
    subscription: subscription ? toSubscriptionView(subscription) : null,
  };
}

export function meta() {
  return [{ title: pageTitle("Your account") }];
}

export default function Account({ loaderData }: Route.ComponentProps) {
  const { name, email, roleName, organizationName, isStaff, hasOrganization, subscription } = loaderData;
  return (
    <div className="prose">
      <h1>Your account</h1>
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
      {subscription ? (
        <section aria-labelledby="subscription">
          <h2 id="subscription">Subscription</h2>
          <SubscriptionSummary subscription={subscription} audience="seller" />
        </section>
      ) : null}
      <h2>What you can do</h2>
      <ul>
        {isStaff ? (
          <li>
            <Link to="/staff">Staff area</Link>: maintain the catalogue and review applications
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
