import { data, Link } from "react-router";
import { awardedOfLotsText } from "~/auctions/auction-words";
import { quantityText } from "~/auctions/lots/line-pricing";
import { lotName } from "~/auctions/lots/lot-words";
import { ColumnHeads } from "~/layout/column-heads";
import { pageTitle } from "~/layout/page-title";
import { TableRegion } from "~/layout/table-region";
import { appServicesContext } from "~/server/app-context";
import { parseId } from "~/shared/ids";
import { formatCents } from "~/shared/money";
import type { Route } from "./+types/account-report-auction";
import { requireReportReader, zoneOf } from "./account-report-data.server";
import { lineSavingsOf, lineTotalsOf, lotSavingsOf } from "./lot-savings";
import { filterSearch, readReportFilter } from "./report-filter";
import { FiguresList, rowFigures } from "./report-parts";
import { awardedAuctions } from "./reports.server";
import { formatBasisPoints } from "./savings";

// /account/reports/:auctionId (issue 31): one awarded auction of the reader's organization in the
// savings report, lot by lot and line by line: each awarded lot's reserve, opening and award prices
// and savings (an auction of several lots is measured over its awarded lots only), and each line
// with a ceiling's savings against it. The reader's own auctions only, as on /account/reports.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireReportReader(request, context);
  const auctionId = parseId(params.auctionId);
  if (auctionId === undefined) throw data(null, { status: 404 });
  const timeZone = zoneOf(user);
  const [row] = await awardedAuctions(
    context.get(appServicesContext).db,
    { organizationId: user.organizationId },
    { fromUtc: null, toUtc: null },
    { auctionId, withLines: true },
  );
  if (!row) throw data(null, { status: 404 });
  const severalLots = row.lotCount > 1;
  const lines = row.lots.flatMap((lot) =>
    lot.ceilingLines.map((line) => ({
      key: `${lot.lotId}-${line.position}`,
      name: `${severalLots ? `${lotName(lot)}, line` : "Line"} ${line.position}: ${line.description}`,
      quantity: `${quantityText(line.quantity)} ${line.unit}`,
      ceilingCents: line.ceilingCents,
      unitCents: line.unitCents,
      ...lineSavingsOf(line),
    })),
  );
  return {
    backHref: `/account/reports${filterSearch(readReportFilter(new URL(request.url), timeZone))}`,
    auction: {
      id: row.auctionId,
      ...rowFigures(row, timeZone),
      shownAsLots: row.lots.length > 0,
    },
    lots: severalLots
      ? row.lots.map((lot) => ({
          lotId: lot.lotId,
          name: lotName(lot),
          reserveCents: lot.reserveCents,
          openingCents: lot.openingCents,
          awardCents: lot.awardCents,
          ...lotSavingsOf(lot),
          bidderCount: lot.bidderCount,
        }))
      : [],
    lines,
    lineTotals: lineTotalsOf(row.lots.flatMap((lot) => lot.ceilingLines)),
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Savings of No. ${loaderData.auction.id}` : "Savings reports") }];
}

const percent = formatBasisPoints;

export default function AccountReportAuction({ loaderData }: Route.ComponentProps) {
  const { auction, lots, lines, lineTotals, backHref } = loaderData;
  return (
    <div>
      <p>
        <Link to={backHref}>Savings reports</Link>
      </p>
      <h1>{`Savings of No. ${auction.id}: ${auction.title}`}</h1>
      <p>
        <Link to={`/auctions/${auction.id}`}>The auction</Link>
        {auction.kind === "sealed" ? " (sealed bids)" : null}
      </p>
      <FiguresList
        figures={[
          ["Awarded on", auction.awardedOn],
          ["Reserve", formatCents(auction.reserveCents)],
          ["Opening price", auction.openingCents === null ? "n/a" : formatCents(auction.openingCents)],
          ["Award price", formatCents(auction.awardCents)],
          [
            "Savings against the reserve",
            `${formatCents(auction.savingsCents)} (${percent(auction.savingsBasisPoints)})`,
          ],
          ["Sellers invited", String(auction.invitedCount)],
          ["Bidders", String(auction.bidderCount)],
        ]}
      />
      {lots.length > 0 ? (
        <>
          <h2>Savings by lot</h2>
          <p>
            {`${awardedOfLotsText(lots.length, auction.lotCount)}. The auction's savings are measured over the awarded lots only: a lot that was not awarded is left out of the reserve, the opening price and the award price.`}
          </p>
          <TableRegion label="Awarded lots">
            <table className="data-table">
              <caption>Awarded lots</caption>
              <ColumnHeads
                columns={["Lot", "Reserve", "Opening price", "Award price", "Savings", "Savings %", "Bidders"]}
              />
              <tbody>
                {lots.map((lot) => (
                  <tr key={lot.lotId}>
                    <th scope="row">{lot.name}</th>
                    <td>{formatCents(lot.reserveCents)}</td>
                    <td>{lot.openingCents === null ? "n/a" : formatCents(lot.openingCents)}</td>
                    <td>{formatCents(lot.awardCents)}</td>
                    <td>{formatCents(lot.savingsCents)}</td>
                    <td>{percent(lot.savingsBasisPoints)}</td>
                    <td>{lot.bidderCount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        </>
      ) : null}
      {auction.shownAsLots ? (
        <>
          <h2>Savings by line</h2>
          {lines.length === 0 ? (
            <p>No line of the awarded lots has a ceiling, so there are no savings by line.</p>
          ) : (
            <>
              <p>
                A line's savings are its estimated quantity at the ceiling less the same quantity at the awarded unit
                price, each rounded to the cent as the line's total is; the percentage is of the total at the ceiling.
              </p>
              <TableRegion label="Lines with a ceiling">
                <table className="data-table">
                  <caption>Lines with a ceiling</caption>
                  <ColumnHeads
                    columns={[
                      "Line",
                      "Quantity",
                      "Ceiling per unit",
                      "Awarded unit price",
                      "At the ceiling",
                      "At the award",
                      "Savings",
                      "Savings %",
                    ]}
                  />
                  <tbody>
                    {lines.map((line) => (
                      <tr key={line.key}>
                        <th scope="row">{line.name}</th>
                        <td>{line.quantity}</td>
                        <td>{formatCents(line.ceilingCents)}</td>
                        <td>{formatCents(line.unitCents)}</td>
                        <td>{formatCents(line.ceilingTotalCents)}</td>
                        <td>{formatCents(line.awardTotalCents)}</td>
                        <td>{formatCents(line.savingsCents)}</td>
                        <td>{percent(line.savingsBasisPoints)}</td>
                      </tr>
                    ))}
                  </tbody>
                  {lines.length > 1 ? (
                    <tfoot>
                      <tr>
                        <th scope="row">All lines with a ceiling</th>
                        <td />
                        <td />
                        <td />
                        <td>{formatCents(lineTotals.ceilingTotalCents)}</td>
                        <td>{formatCents(lineTotals.awardTotalCents)}</td>
                        <td>{formatCents(lineTotals.savingsCents)}</td>
                        <td>{percent(lineTotals.savingsBasisPoints)}</td>
                      </tr>
                    </tfoot>
                  ) : null}
                </table>
              </TableRegion>
            </>
          )}
        </>
      ) : null}
      <p className="field__hint">
        Percentages are savings over reserve (a line's: over its total at the ceiling), rounded half to even to 0.01%.
      </p>
    </div>
  );
}
