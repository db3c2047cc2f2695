import { Form, Link } from "react-router";
import { Alert } from "~/forms/alert";
import { SubmitButton } from "~/forms/submit-button";
import type { Reuse } from "./reuse-panel.server";

// The auction page's part of issue 21 (see reuse-panel.server.ts). Plain links and a plain form post.

export function ReusePanel({ auctionId, reuse }: { auctionId: number; reuse: Reuse }) {
  return (
    <>
      {reuse.practice ? (
        <Alert title="Practice auction — nothing here is real" tone="success">
          <p>
            The other bidders are simulated. Your bids bind nobody, no buyer sees them, and nobody is e-mailed.{" "}
            <Link to="/auctions/practice">About practice auctions</Link>
          </p>
        </Alert>
      ) : null}
      {reuse.copiedFrom ? (
        <section className="card" aria-labelledby="copied-heading">
          <h2 id="copied-heading">{`A copy of auction ${reuse.copiedFrom.fromAuctionId}`}</h2>
          <p>
            This draft is a copy of <Link to={`/auctions/${reuse.copiedFrom.fromAuctionId}`}>the earlier auction</Link>.
            Its start and end were set to tomorrow:{" "}
            <Link to={`/auctions/${auctionId}/edit`}>check the dates and terms</Link> before you publish it.
          </p>
          {reuse.copiedFrom.dropped.length > 0 ? (
            <>
              <p>These sellers were not invited again:</p>
              <ul>
                {reuse.copiedFrom.dropped.map((seller) => (
                  <li key={seller.organizationId}>{`${seller.name}: ${seller.reason}`}</li>
                ))}
              </ul>
            </>
          ) : (
            <p>Every seller invited to the earlier auction is invited to this one.</p>
          )}
        </section>
      ) : null}
      {reuse.mayCopy ? (
        <Form method="post" action={`/auctions/${auctionId}/copy`}>
          <SubmitButton secondary>Copy to a new auction</SubmitButton>
        </Form>
      ) : null}
    </>
  );
}
