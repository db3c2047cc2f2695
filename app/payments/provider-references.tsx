import type { ReactNode } from "react";
import type { ProviderReference, SellerProviderReferences } from "./provider-references.server";
import { STATUS_LABELS } from "./subscriptions/standing";

// A seller's customer and subscription at the card provider, for staff answering a question about a
// charge: Stripe's ids link to its dashboard; the test card provider's are shown as they are.

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Reference({ reference }: { reference: ProviderReference | null }) {
  if (!reference) return <>None</>;
  if (reference.provider === "test") {
    return (
      <>
        <code>{reference.id}</code> (the test card provider's, not Stripe's)
      </>
    );
  }
  if (!reference.dashboardUrl) {
    return (
      <>
        <code>{reference.id}</code> (Stripe's; Stripe is not configured here, so there is no link)
      </>
    );
  }
  return (
    <a href={reference.dashboardUrl}>
      <code>{reference.id}</code> in Stripe's dashboard{reference.testMode ? " (test mode)" : ""}
    </a>
  );
}

export function ProviderReferences({ references }: { references: SellerProviderReferences }) {
  const { customer, subscription, subscriptionStatus } = references;
  const onTestProvider = customer?.provider === "test" || subscription?.provider === "test";
  return (
    <section aria-labelledby="card-provider">
      <h2 id="card-provider">Card provider</h2>
      {onTestProvider ? (
        <p>
          These ids are the built-in test card provider's: Stripe holds no such customer or subscription, so there is
          nothing to look up in its dashboard.
        </p>
      ) : null}
      <dl className="summary-list">
        <Row label="Customer">
          <Reference reference={customer} />
        </Row>
        <Row label="Subscription">
          <Reference reference={subscription} />
        </Row>
        <Row label="Subscription status">{subscriptionStatus ? STATUS_LABELS[subscriptionStatus] : "None"}</Row>
      </dl>
    </section>
  );
}
