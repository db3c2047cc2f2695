import { data, Form, Link, redirect } from "react-router";
import { Alert } from "~/forms/alert";
import { SubmitButton } from "~/forms/submit-button";
import { pageTitle } from "~/layout/page-title";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { requireUser } from "~/sessions/auth.server";
import { formatCents } from "~/shared/money";
import { Role } from "~/shared/roles";
import { counted } from "~/shared/words";
import type { Route } from "./+types/practice-page";
import { latestPracticeAuction, mayPractise, runningPracticeAuction, startPracticeAuction } from "./practice.server";
import {
  PRACTICE_KINDS,
  PRACTICE_LOT_GAP_MINUTES,
  PRACTICE_LOTS,
  PRACTICE_MINUTES,
  PRACTICE_RESERVE_CENTS,
  type PracticeKind,
  practiceLotReserveCents,
} from "./practice-rules";

// /auctions/practice (issue 21): an approved seller opens a practice auction for themselves, private
// and simulated, and bids in it on the normal seller page. Sellers only: anyone else gets a 404.

function requireSeller(request: Request, context: Route.LoaderArgs["context"]) {
  const user = requireUser(request, context);
  if (user.role !== Role.Seller || !user.organizationId) throw data(null, { status: 404 });
  return { ...user, organizationId: user.organizationId };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireSeller(request, context);
  const { db } = context.get(appServicesContext);
  const [allowed, running, latest] = await Promise.all([
    mayPractise(db, user.organizationId),
    runningPracticeAuction(db, user.organizationId),
    latestPracticeAuction(db, user.organizationId),
  ]);
  return {
    refusal: allowed.ok ? null : allowed.message,
    runningId: running?.id ?? null,
    latestId: latest,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireSeller(request, context);
  // A body this form would never send is refused (4xx), not acted on. No choice (the "Start another"
  // button of an ended practice auction): one price, as before.
  const kind = (await readFormBody(request)).get("kind") ?? "one-price";
  if (!isPracticeKind(kind)) throw data(null, { status: 400 });
  const started = await startPracticeAuction(
    context.get(appServicesContext).db,
    { userId: user.id, organizationId: user.organizationId },
    undefined,
    kind,
  );
  if (started.kind === "refused") return data({ message: started.message }, { status: 403 });
  return redirect(`/auctions/${started.auctionId}`);
}

const isPracticeKind = (value: unknown): value is PracticeKind => PRACTICE_KINDS.some((kind) => kind === value);

/** "Hauling (3 lines) and Rig move (2 lines)": the practice rate sheet's lots, said. */
const practiceLotsText = PRACTICE_LOTS.map(
  (lot) => `${lot.title} (${counted(lot.lines.length, "line", "lines")})`,
).join(" and ");

export function meta() {
  return [{ title: pageTitle("Practice auction") }];
}

export default function PracticePage({ loaderData, actionData }: Route.ComponentProps) {
  const { refusal, runningId, latestId } = loaderData;
  const message = actionData?.message ?? refusal;
  return (
    <div className="narrow">
      <p>
        <Link to="/auctions">Auctions</Link>
      </p>
      <h1>Practice auction</h1>
      <p>
        Try bidding before your first real auction. A practice auction opens at once and lasts {PRACTICE_MINUTES}{" "}
        minutes: one price, with a reserve of {formatCents(PRACTICE_RESERVE_CENTS)}, or a rate sheet in lots. The other
        bidders are simulated: one of them undercuts your bids for a while. Nothing here is real: no buyer sees it,
        nothing binds you, and nobody is e-mailed.
      </p>
      {message ? (
        <Alert title="You cannot practise now">
          <p>{message}</p>
        </Alert>
      ) : null}
      {runningId ? (
        <p>
          <Link className="button" to={`/auctions/${runningId}`}>
            Go to your practice auction
          </Link>
        </p>
      ) : refusal ? null : (
        <Form method="post" className="stack">
          <fieldset className="fieldset" aria-describedby="practice-kind-hint">
            <legend className="fieldset__legend">What to bid on</legend>
            <div className="checkbox">
              <input
                type="radio"
                className="checkbox__input"
                id="practice-kind-one-price"
                name="kind"
                value="one-price"
                defaultChecked
              />
              <label className="checkbox__label" htmlFor="practice-kind-one-price">
                One price
              </label>
            </div>
            <div className="checkbox">
              <input type="radio" className="checkbox__input" id="practice-kind-lots" name="kind" value="lots" />
              <label className="checkbox__label" htmlFor="practice-kind-lots">
                A rate sheet in lots
              </label>
            </div>
            <p className="field__hint" id="practice-kind-hint">
              {`A rate sheet in lots, as oilfield services are bought: ${practiceLotsText}, reserves of ${PRACTICE_LOTS.map((lot) => formatCents(practiceLotReserveCents(lot))).join(" and ")}. You bid a unit price per line on each lot's own page; the lots close ${counted(PRACTICE_LOT_GAP_MINUTES, "minute", "minutes")} apart.`}
            </p>
          </fieldset>
          <SubmitButton>Start a practice auction</SubmitButton>
        </Form>
      )}
      {latestId && latestId !== runningId ? (
        <p>
          <Link to={`/auctions/${latestId}`}>Your last practice auction</Link>
        </p>
      ) : null}
    </div>
  );
}
